// The `curl` examples of the README and the API pages of docs/ as requests a test can send: so the documented
// answers are checked against the answers the server really gives.
import { readFileSync } from 'node:fs';

export interface ReadmeRequest {
  /** The command as written (continuations joined), for messages. */
  line: string;
  method: string;
  /** Path and query, without the docs' `http://localhost:8080`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Words of one shell command: quotes, `$VAR` / `${VAR}` expansion from `vars`, and a trailing `# comment`. An
 * unquoted `|`, `;`, `>` or `&` ends the command (what follows reads or stores its answer).
 */
function shellWords(command: string, vars: Record<string, string>): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const expand = (s: string) => s.replace(/\$\{?([A-Za-z_]\w*)\}?/g, (m, name: string) => vars[name] ?? m);
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      break;
    } else if ('|;>&'.includes(c)) {
      break;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unbalanced quote in a docs example: ${command}`);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = '';
      for (i++; i < command.length && command[i] !== '"'; i++) text += command[i] === '\\' ? command[++i] : command[i];
      word = (word ?? '') + expand(text);
    } else {
      let text = '';
      for (; i < command.length && !/[\s'"|;>&]/.test(command[i]!); i++) text += command[i];
      i--;
      word = (word ?? '') + expand(text);
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The commands of a shell block: a line ends a command unless a `\` continues it or a quote is still open. */
function commandsOf(block: string): string[] {
  const commands: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (let i = 0; i < block.length; i++) {
    const c = block[i]!;
    if (quote) {
      // Inside quotes a line break belongs to the word; in double quotes a backslash escapes the next character.
      if (c === '\\' && quote === '"' && i + 1 < block.length) {
        current += c + block[++i]!;
        continue;
      }
      if (c === quote) quote = undefined;
      current += c;
      continue;
    }
    if (c === '#' && (current === '' || /\s$/.test(current))) {
      // A comment runs to the end of the line (its apostrophes open no quote).
      while (i + 1 < block.length && block[i + 1] !== '\n') i++;
    } else if (c === '\\' && block[i + 1] === '\n') {
      current += ' ';
      i++;
    } else if (c === '\n') {
      commands.push(current);
      current = '';
    } else {
      if (c === "'" || c === '"') quote = c;
      current += c;
    }
  }
  commands.push(current);
  return commands;
}

/**
 * Every `curl` line of the runnable `sh` blocks of the given Markdown files that a test can send as it stands.
 * Left out: lines that need the output of an earlier command or a secret of the reader's shell (`$(…)`,
 * `$TOKEN`, an id read from an answer, `<id>`), `-G` forms (their request repeats another example), and
 * conditional downloads (`--etag-compare` reads a file the example wrote before). `VAR=value` lines of a file's
 * blocks (like `BASE=…`, `J='…'`) apply to the lines after them in that file; `vars` are the values every file
 * starts with.
 */
export function readmeRequests(paths: string[], vars: Record<string, string>): ReadmeRequest[] {
  const out: ReadmeRequest[] = [];
  for (const path of paths) out.push(...fileRequests(path, vars));
  return out;
}

function fileRequests(path: string, vars: Record<string, string>): ReadmeRequest[] {
  const readme = readFileSync(path, 'utf8');
  const out: ReadmeRequest[] = [];
  const env = { ...vars };
  for (const block of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of commandsOf(block[1]!)) {
      const line = raw.trim();
      const assignment = /^([A-Z_]+)=('[^']*'|\S+)$/.exec(line);
      if (assignment) {
        env[assignment[1]!] = shellWords(assignment[2]!, env)[0] ?? '';
        continue;
      }
      if (!line.startsWith('curl ') || /\$\(|<id>| -G |--etag-compare/.test(line)) continue;
      const words = shellWords(line, env).slice(1);
      const req: ReadmeRequest = { line, method: '', path: '', headers: {} };
      for (let i = 0; i < words.length; i++) {
        const w = words[i]!;
        if (w === '-u') req.headers.Authorization = `Basic ${Buffer.from(words[++i]!).toString('base64')}`;
        else if (w === '-H') {
          const h = words[++i]!;
          const colon = h.indexOf(':');
          req.headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
        } else if (w === '-d' || w === '--data' || w === '--data-binary') req.body = words[++i];
        else if (w === '-X') req.method = words[++i]!;
        else if (w === '-o' || w === '-w' || w === '-D') i++; // where the body and headers go, what is printed: not part of the request
        else if (w === '-I') req.method = 'HEAD';
        else if (w.startsWith('http://localhost:8080')) req.path = w.slice('http://localhost:8080'.length);
        else if (w.startsWith('$')) req.path = w; // a URL only the reader's shell has (`$LINK`): left out below
        else if (!['-L', '-s', '-S', '-sS', '-i', '-f', '--fail-with-body', '--compressed'].includes(w)) {
          throw new Error(`${path}: an example with an option the test does not know (${w}): ${line}`);
        }
      }
      req.method ||= req.body === undefined ? 'GET' : 'POST';
      // A value only the reader's shell has (a token printed earlier, METRICS_TOKEN …); bodies may hold `${…}`.
      if (/\$[A-Za-z_{]/.test(req.path + JSON.stringify(req.headers))) continue;
      out.push(req);
    }
  }
  return out;
}
