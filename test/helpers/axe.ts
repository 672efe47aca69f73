// axe-core (npm, pinned in package.json) run inside a page of the browser tests: its script is read from
// node_modules and evaluated in the page (through the debugging protocol, which the page's Content-Security-Policy
// does not govern: the policy forbids inline scripts), so nothing is downloaded while the tests run.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** The first few offending elements' selectors. */
  targets: string[];
}

/** The serious and critical violations axe finds on the page as it is now (WCAG 2.1 A and AA rules). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Strings, not functions: this file is compiled without the DOM's types, and the page's code is axe's own.
  if (!(await page.evaluate("typeof axe !== 'undefined'"))) await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  const options = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] };
  const results = (await page.evaluate(`axe.run(document, ${JSON.stringify(options)})`)) as {
    violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
  };
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.map(String).join(' ')) }));
}
