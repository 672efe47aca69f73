// docs/ and first-start curl lines of the download API against the wiki's demo page (fixed ids).
import { DEMO_IDS } from '../wiki/wiki.demo.ts';
import { PATHS, REST_BASE } from './generation.ts';

/** Base64 of the demo page's first section, `testsystem 1`. */
const TESTSYSTEM_1 = 'dGVzdHN5c3RlbSAx';

export function codeblocksDemoCurlLines(baseUrl: string): string[] {
  const rest = `${baseUrl}${REST_BASE}`;
  const page = `macroId=${DEMO_IDS.pageMacro}&contentId=${DEMO_IDS.page}`;
  return [
    `curl -u alice:alice '${rest}${PATHS.downloadCode}?key=${TESTSYSTEM_1}&${page}'`,
    `curl -u alice:alice '${rest}${PATHS.listXml}?${page}'`,
    `curl -u alice:alice '${rest}${PATHS.listJson}?macroId=${DEMO_IDS.commentMacro}&contentId=${DEMO_IDS.comment}'`,
    `curl -L -u alice:alice '${baseUrl}${PATHS.servletCode}?pagepropertykey=cmF3&macroid=${DEMO_IDS.pageMacro}&pageid=${DEMO_IDS.page}&os_authType=basic'`,
  ];
}
