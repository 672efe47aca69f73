import type { ImportDocument } from '../importer/import.service.ts';
import { wikiDemoSections } from '../wiki/wiki.demo.ts';
import { trackerDemoSections } from '../tracker/tracker.demo.ts';
import { optionsDemoSections } from '../fieldeditor/options/options.demo.ts';

/**
 * The demo data set as an import document. Ids that the curl lines of docs/ use are fixed here.
 * Features add their sections (spaces and pages, projects and fields …).
 */
export function demoDocument(): ImportDocument {
  return {
    groups: [{ name: 'developers' }],
    users: [{ name: 'alice', password: 'alice', displayName: 'Alice Example', emailAddress: 'alice@example.com', groups: ['developers'] }],
    ...wikiDemoSections(),
    ...trackerDemoSections(),
    ...optionsDemoSections(),
  };
}
