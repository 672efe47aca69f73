import type { Request } from 'express';

/** A path parameter as a string ('' when absent, so that the parsers answer their documented 400). */
export const pathParam = (req: Request, name: string): string => (req.params as Record<string, string | undefined>)[name] ?? '';
