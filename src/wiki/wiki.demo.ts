
// The wiki part of the demo data set. Content ids and macro ids are fixed so the curl lines of docs/ work.

export const DEMO_IDS = {
  page: 1001,
  blogpost: 1002,
  comment: 1003,
  restrictedPage: 1004,
  pageMacro: '5f3c2a4e-1d2b-4c6a-9e8f-000000001001',
  blogMacro: '5f3c2a4e-1d2b-4c6a-9e8f-000000001002',
  commentMacro: '5f3c2a4e-1d2b-4c6a-9e8f-000000001003',
} as const;

const macro = (name: string, id: string, params: Record<string, string>, body: string) =>
  `<ac:structured-macro ac:name="${name}" ac:schema-version="1" ac:macro-id="${id}">` +
  Object.entries(params)
    .map(([k, v]) => `<ac:parameter ac:name="${k}">${v}</ac:parameter>`)
    .join('') +
  `<ac:plain-text-body><![CDATA[${body}]]></ac:plain-text-body></ac:structured-macro>`;

/** The demo page's code box (two sections and a template); the bench downloads the same box. */
export const DEMO_VHOSTS = `[testsystem 1]
base.url = test1.example.org
document.root = /var/www/test1

[testsystem 2]
base.url = test2.example.org
document.root = /var/www/test2

[content]
<VirtualHost *:80>
    ServerName \${base.url}
    DocumentRoot \${document.root}
</VirtualHost>
`;

const DEPLOY = `[staging]
host = staging.example.org

[production]
host = www.example.org

[content]
rsync -av ./dist/ deploy@\${host}:/srv/app/
`;

export function wikiDemoSections(): Record<string, unknown[]> {
  return {
    spaces: [
      {
        key: 'DEMO',
        name: 'Demo space',
        description: 'Pages with code boxes for the README examples',
        permissions: [
          { group: 'users', operation: 'read' },
          { group: 'developers', operation: 'create' },
        ],
      },
    ],
    content: [
      {
        id: DEMO_IDS.page,
        type: 'page',
        title: 'Web servers',
        space: 'DEMO',
        author: 'alice',
        body:
          '<p>Apache virtual hosts of the test systems.</p>' +
          macro('advanced-codeblock-macro', DEMO_IDS.pageMacro, { globaltitle: 'Virtual hosts', lang: 'Apache', theme: 'light-spring', enableddl: 'true' }, DEMO_VHOSTS),
      },
      {
        id: DEMO_IDS.blogpost,
        type: 'blogpost',
        title: 'Release notes',
        space: 'DEMO',
        author: 'alice',
        body:
          '<p>How to check the version after a release:</p>' +
          macro('advanced-single-codeblock-macro', DEMO_IDS.blogMacro, { globaltitle: 'Version check', lang: 'Bash', enableddl: 'true' }, 'curl -s https://www.example.org/version\n'),
      },
      {
        id: DEMO_IDS.comment,
        type: 'comment',
        space: 'DEMO',
        containerId: DEMO_IDS.page,
        author: 'alice',
        body:
          '<p>And the deployment command per environment:</p>' +
          macro('advanced-codeblock-macro', DEMO_IDS.commentMacro, { globaltitle: 'Deploy', lang: 'Bash', enableddl: 'true' }, DEPLOY),
      },
      {
        id: DEMO_IDS.restrictedPage,
        type: 'page',
        title: 'Administrator notes',
        space: 'DEMO',
        parentId: DEMO_IDS.page,
        body: '<p>Only the administrators group may read this page (a read restriction).</p>',
        restrictions: { groups: ['administrators'] },
      },
    ],
  };
}

export function wikiDemoCurlLines(baseUrl: string): string[] {
  return [
    `curl -u alice:alice '${baseUrl}/rest/api/content/${DEMO_IDS.page}?expand=body.storage,ancestors'`,
    `curl -u alice:alice ${baseUrl}/rest/api/content/${DEMO_IDS.page}/history/0/macro/id/${DEMO_IDS.pageMacro}`,
  ];
}
