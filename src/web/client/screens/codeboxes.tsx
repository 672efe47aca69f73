import { useEffect, useState } from 'preact/hooks';
import { api, apiText, baseUrl, contextPath, errorText, qs } from '../api.ts';
import { codeboxMacros, type MacroRef } from '../codebox-macros.ts';
import { go, href } from '../router.ts';
import type { Me } from '../session.ts';
import { CopyLine, ErrorMessage, Loading } from '../ui.tsx';

interface Paged<T> {
  results: T[];
  size: number;
}
interface Space {
  key: string;
  name: string;
}
interface Content {
  id: string | number;
  type: string;
  title: string;
  space?: { key: string };
  body?: { storage?: { value: string } };
}
interface Block {
  key: string;
  name: string;
  download: string;
}

const CB = '/rest/advancedcodeblocks/1';
const KIND_LABELS: Record<string, string> = {
  'advanced-codeblock-macro': 'sections and a template',
  'advanced-single-codeblock-macro': 'single block',
  'advanced-remote-codeblock-macro': 'remote template',
};

/** Spaces → content → code boxes of one content, with every block shown, downloadable and as curl lines. */
export function CodeboxesScreen({ me, spaceKey, contentId }: { me: Me; spaceKey?: string; contentId?: string }) {
  return (
    <section aria-labelledby="codeboxes-title">
      <p class="crumbs">
        <a href={href('codeboxes')}>Spaces</a>
        {spaceKey && spaceKey !== '-' && (
          <>
            {' › '}
            <a href={href('codeboxes', spaceKey)}>{spaceKey}</a>
          </>
        )}
      </p>
      {contentId ? <ContentBoxes me={me} contentId={contentId} /> : spaceKey && spaceKey !== '-' ? <ContentList spaceKey={spaceKey} /> : <SpaceList />}
    </section>
  );
}

function OpenById() {
  const [id, setId] = useState('');
  return (
    <form
      class="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (id.trim()) go('codeboxes', '-', id.trim());
      }}
    >
      <label class="inline">
        Open a page, blog post or comment by id
        <input data-testid="content-id-input" inputMode="numeric" pattern="[0-9]+" value={id} onInput={(e) => setId(e.currentTarget.value)} />
      </label>
      <button type="submit">Open</button>
    </form>
  );
}

function SpaceList() {
  const [spaces, setSpaces] = useState<Space[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api<Paged<Space>>('GET', `/rest/api/space${qs({ limit: 100 })}`).then((p) => setSpaces(p.results), (e) => setError(errorText(e)));
  }, []);
  return (
    <>
      <h1 id="codeboxes-title">Code boxes</h1>
      <OpenById />
      <h2>Spaces you may read</h2>
      <ErrorMessage error={error} />
      {!spaces && !error && <Loading />}
      {spaces && spaces.length === 0 && <p class="muted">No space is readable for you.</p>}
      {spaces && (
        <ul class="links">
          {spaces.map((s) => (
            <li key={s.key} data-testid="space-row" data-key={s.key}>
              <a href={href('codeboxes', s.key)}>{s.name}</a> <span class="muted">{s.key}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

interface Boxed {
  contentId: number;
  contentTitle: string;
  contentType: string;
  codeBoxes: number;
  container?: { contentId: number; contentTitle: string; contentType: string };
}

/** The content list shows the first 100 pages by id; the first 100 boxed pages by id are then all its marks. */
const LIST_LIMIT = 100;

const boxesText = (n: number) => (n === 1 ? '1 code box' : `${n} code boxes`);

/** The content of one type in the space that holds code boxes (the server applies the view rule). */
function boxedOf(spaceKey: string, type: 'page' | 'blogpost' | 'comment') {
  return api<{ results: Boxed[]; isLastPage: boolean }>('GET', `${CB}/content_list/json${qs({ spaceKey, type, limit: LIST_LIMIT })}`);
}

function ContentList({ spaceKey }: { spaceKey: string }) {
  const [content, setContent] = useState<Content[]>();
  const [boxedPages, setBoxedPages] = useState<Map<string, number>>();
  const [others, setOthers] = useState<{ items: Boxed[]; more: boolean }>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api<Paged<Content>>('GET', `/rest/api/content${qs({ spaceKey, limit: LIST_LIMIT })}`).then((p) => setContent(p.results), (e) => setError(errorText(e)));
    Promise.all([boxedOf(spaceKey, 'page'), boxedOf(spaceKey, 'blogpost'), boxedOf(spaceKey, 'comment')]).then(
      ([pages, posts, comments]) => {
        setBoxedPages(new Map(pages.results.map((b) => [String(b.contentId), b.codeBoxes])));
        setOthers({ items: [...posts.results, ...comments.results], more: !posts.isLastPage || !comments.isLastPage });
      },
      (e) => setError(errorText(e)),
    );
  }, [spaceKey]);
  const marked = content && boxedPages ? content.filter((c) => boxedPages.has(String(c.id))).length : undefined;
  return (
    <>
      <h1 id="codeboxes-title">Content of {spaceKey}</h1>
      <ErrorMessage error={error} />
      {!content && !error && <Loading />}
      {content && content.length === 0 && <p class="muted">Nothing here that you may view.</p>}
      {content && content.length > 0 && (
        <>
          <h2>Pages</h2>
          {marked !== undefined && (
            <p class="muted" data-testid="codebox-page-count">
              {marked === 0 ? 'No page here holds a code box.' : `${marked} of ${content.length} pages hold code boxes (marked).`}
            </p>
          )}
          <ul class="links">
            {content.map((c) => {
              const boxes = boxedPages?.get(String(c.id));
              return (
                <li key={c.id} data-testid="content-row" data-content-id={c.id}>
                  <a href={href('codeboxes', spaceKey, c.id)}>{c.title}</a> <span class="muted">{c.type}</span>{' '}
                  {boxes !== undefined && (
                    <span class="badge codebox-mark" data-testid="codebox-page" data-boxes={boxes}>
                      {boxesText(boxes)}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
      {others && (
        <>
          <h2>Blog posts and comments with code boxes</h2>
          {others.items.length === 0 && <p class="muted">No blog post or comment here holds a code box.</p>}
          <ul class="links">
            {others.items.map((b) => (
              <li key={b.contentId} data-testid="codebox-content" data-content-id={b.contentId} data-type={b.contentType}>
                <a href={href('codeboxes', spaceKey, b.contentId)}>{b.contentTitle}</a>{' '}
                <span class="muted">
                  {b.contentType === 'comment' ? 'comment' : 'blog post'}
                  {b.container && ` on ${b.container.contentTitle}`}
                </span>{' '}
                <span class="badge codebox-mark">{boxesText(b.codeBoxes)}</span>
              </li>
            ))}
          </ul>
          {others.more && <p class="muted">Only the first {LIST_LIMIT} of each kind are shown; open any other by its id.</p>}
        </>
      )}
    </>
  );
}

function ContentBoxes({ me, contentId }: { me: Me; contentId: string }) {
  const [content, setContent] = useState<Content>();
  const [macros, setMacros] = useState<MacroRef[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api<Content>('GET', `/rest/api/content/${encodeURIComponent(contentId)}?expand=body.storage,space`).then(
      (c) => (setContent(c), setMacros(codeboxMacros(c.body?.storage?.value ?? ''))),
      (e) => setError(errorText(e)),
    );
  }, [contentId]);
  if (error) return <ErrorMessage error={error} />;
  if (!content || !macros) return <Loading />;
  return (
    <>
      <h1 id="codeboxes-title">
        {content.title} <span class="muted">· {content.type}</span>
      </h1>
      {macros.length === 0 && <p class="muted">This {content.type} has no code boxes.</p>}
      {macros.map((m, i) => (
        <CodeBox key={m.macroId} me={me} contentId={contentId} macro={m} index={i + 1} />
      ))}
    </>
  );
}

function CodeBox({ me, contentId, macro, index }: { me: Me; contentId: string; macro: MacroRef; index: number }) {
  const [blocks, setBlocks] = useState<Block[]>();
  const [error, setError] = useState<string>();
  const params = { macroId: macro.macroId, contentId };
  useEffect(() => {
    api<{ codeBlocks: Block[] }>('GET', `${CB}/download_list/json${qs(params)}`).then((l) => setBlocks(l.codeBlocks), (e) => setError(errorText(e)));
  }, [macro.macroId]);

  const lines = (path: string) => [
    { label: 'with your password (curl asks for it)', text: `curl -u ${me.name} '${baseUrl}${path}'` },
    { label: 'with a token', text: `curl -H "Authorization: Bearer $TOKEN" '${baseUrl}${path}'` },
  ];

  return (
    <article class="card codebox" aria-label={`Code box ${index}`} data-testid="codebox" data-macro-id={macro.macroId}>
      <h2>
        Code box {index} <span class="muted">· {KIND_LABELS[macro.kind] ?? macro.kind}</span>
      </h2>
      <ErrorMessage error={error} />
      {!blocks && !error && <Loading />}
      {blocks?.map((b) => (
        <BlockView key={b.key} block={b} path={`${CB}/download_code/plain_text${qs({ key: b.key, ...params })}`} lines={lines} />
      ))}
      <details class="curl">
        <summary>Download the whole box with curl (as XML or JSON)</summary>
        {[...lines(`${CB}/download_list/xml${qs(params)}`), ...lines(`${CB}/download_list/json${qs(params)}`)].map((l, i) => (
          <CopyLine key={i} text={l.text} label={`the curl line for ${i < 2 ? 'XML' : 'JSON'} ${l.label}`} />
        ))}
      </details>
    </article>
  );
}

function BlockView({ block, path, lines }: { block: Block; path: string; lines: (p: string) => { label: string; text: string }[] }) {
  const [text, setText] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    apiText(path).then(setText, (e) => setError(errorText(e)));
  }, [path]);
  return (
    <section class="block" data-testid="codebox-block" data-key={block.key}>
      <div class="block-head">
        <h3>{block.name}</h3>
        <a class="button small" data-testid="codebox-download" href={contextPath + path} download={`${block.name}.txt`}>
          Download
        </a>
      </div>
      <ErrorMessage error={error} />
      {text !== undefined && <pre tabIndex={0} aria-label={`Text of ${block.name}`}>{text}</pre>}
      <details class="curl">
        <summary>Download with curl</summary>
        {lines(path).map((l, i) => (
          <CopyLine key={i} text={l.text} label={`the curl line ${l.label}`} />
        ))}
      </details>
    </section>
  );
}
