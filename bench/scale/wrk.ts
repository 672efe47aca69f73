// Pinning processes to cores, and wrk as the load generator of the scale run (bench/scale/README in
// bench/README.md, "Scale on many cores"). wrk rather than autocannon: one wrk thread drives a node at full
// speed from a fraction of a core, so that eight nodes can be loaded from the cores that are left.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `taskset -c <core>` if the machine has it, else python3 setting the affinity and exec'ing: the pid stays the command's. */
export function pinned(core: number | string, command: string, args: readonly string[]): [string, string[]] {
  if (hasTaskset()) return ['taskset', ['-c', String(core), command, ...args]];
  const py = 'import os,sys; c=sys.argv[1]; os.sched_setaffinity(0, {int(x) for x in c.split(",")}); os.execvp(sys.argv[2], sys.argv[2:])';
  return ['python3', ['-c', py, String(core), command, ...args]];
}

let taskset: boolean | undefined;
function hasTaskset(): boolean {
  taskset ??= (process.env.PATH ?? '').split(':').some((d) => d && fs.existsSync(path.join(d, 'taskset')));
  return taskset;
}

/** The cores this process may use (the run's cores are numbered within them). */
export function usableCores(): number[] {
  const line = fs.readFileSync('/proc/self/status', 'utf8').match(/^Cpus_allowed_list:\s*(.+)$/m)?.[1] ?? '';
  const cores = line.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    return b === undefined ? [a!] : Array.from({ length: b - a! + 1 }, (_, i) => a! + i);
  });
  return cores.length > 0 && cores.every(Number.isInteger) ? cores : Array.from({ length: os.availableParallelism() }, (_, i) => i);
}

/**
 * The core plan: the lower half of the cores for server processes (one each), the upper half for everything
 * else (PostgreSQL, which run-on-bare.sh pins there, and the load generators). With 16 cores: 8 and 8.
 */
export function corePlan(): { servers: number[]; load: number[] } {
  const cores = usableCores();
  const half = Math.max(1, Math.floor(cores.length / 2));
  const load = cores.slice(half);
  return { servers: cores.slice(0, half), load: load.length > 0 ? load : cores };
}

/** The Cpus_allowed_list of a process (to print PostgreSQL's cores beside the figures). */
export function coresOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^Cpus_allowed_list:\s*(.+)$/m)?.[1] ?? '?';
  } catch {
    return '? (not visible from here)';
  }
}

/**
 * One Lua script for every mode. GET defines no `request()`, so wrk sends one pre-built request (the fastest
 * path, as for E1); the writes build each request: option values must be new in their list, so each carries
 * the run's prefix and a counter. `done()` prints one JSON line that runWrk reads.
 */
const LUA = `
local mode = os.getenv("WRK_MODE") or "get"
if mode ~= "get" then
  local path, prefix, ids, n = "", "", {}, 0
  function init(args)
    path = args[1]; prefix = args[2]
    for id in string.gmatch(args[3] or "", "%d+") do ids[#ids + 1] = id end
  end
  local function value() n = n + 1; return '{"optionvalue":"' .. prefix .. "-" .. n .. '"}' end
  function request()
    if mode == "create" then return wrk.format("POST", path, nil, value()) end
    local id = ids[math.random(#ids)]
    if mode == "rename" then return wrk.format("PUT", path .. "/" .. id, nil, value()) end
    n = n + 1
    local after = ids[math.random(#ids)]
    local body = (after == id or n % 10 == 0) and '{"position":"First"}' or '{"after":"' .. after .. '"}'
    return wrk.format("POST", path .. "/" .. id .. "/move", nil, body)
  end
end
function done(s, lat)
  local e = s.errors
  io.write(string.format('WRKJSON {"requests":%d,"durationUs":%d,"socketErrors":%d,"non2xx":%d,"timeouts":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d}\\n',
    s.requests, s.duration, e.connect + e.read + e.write, e.status, e.timeout, lat:percentile(50), lat:percentile(99), lat.max))
end
`;

let luaPath: string | undefined;
function luaFile(): string {
  if (!luaPath) {
    luaPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scale-wrk-')), 'load.lua');
    fs.writeFileSync(luaPath, LUA);
  }
  return luaPath;
}

export interface WrkResult {
  requests: number;
  durationUs: number;
  socketErrors: number;
  non2xx: number;
  timeouts: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
  /** requests / seconds */
  rps: number;
}

export interface WrkLoad {
  core: number;
  baseUrl: string;
  auth: string;
  mode: 'get' | 'create' | 'rename' | 'move';
  /** The GET path, or the options path of the writes. */
  path: string;
  connections: number;
  seconds: number;
  /** Writes: a prefix that makes every option value of this load new. */
  prefix?: string;
  ids?: readonly number[];
}

/** One wrk process (one thread), pinned; resolves with its figures. */
export function runWrk(load: WrkLoad): Promise<WrkResult> {
  const write = load.mode !== 'get';
  const url = load.baseUrl + (write ? '/' : load.path);
  const args = [
    '-t1', `-c${load.connections}`, `-d${Math.max(1, Math.round(load.seconds))}s`, '--timeout', '10s',
    '-H', `Authorization: ${load.auth}`, '-H', 'Accept: application/json',
    ...(write ? ['-H', 'Content-Type: application/json'] : []),
    '-s', luaFile(), url,
    ...(write ? ['--', load.path, load.prefix ?? 'v', (load.ids ?? []).join(',')] : []),
  ];
  const [cmd, argv] = pinned(load.core, process.env.WRK ?? 'wrk', args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env: { ...process.env, WRK_MODE: load.mode }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('WRKJSON '));
      if (!line) return reject(new Error(`wrk ${load.mode} ${url} exited ${code}:\n${out.slice(-2000)}`));
      const r = JSON.parse(line.slice(8)) as Omit<WrkResult, 'rps'>;
      resolve({ ...r, rps: r.requests / (r.durationUs / 1e6) });
    });
  });
}
