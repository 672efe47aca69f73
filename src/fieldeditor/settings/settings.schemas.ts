import { z } from 'zod';
import { bodyObject, lenientBoolean } from '../shared/fieldeditor.schemas.ts';

/** PUT admin/settings: the settings to change (others stay as they are). */
export const settingsBody = z.object({ onlyAdminsMayDeleteOptions: lenientBoolean.optional() }, bodyObject);
