import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * No Docker engine is reachable where the tests run, so the recipes are checked as files: what the issue
 * asks of them is read from the compose file and the Dockerfile (docs/operations.md says what this leaves
 * unverified).
 */
type Service = {
  image?: string;
  build?: unknown;
  profiles?: string[];
  restart?: string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: unknown;
};
const compose = parse(fs.readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as { services: Record<string, Service> };
const nodes = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);

describe('docker-compose.yml', () => {
  it('refuses to start without ADMIN_PASSWORD, loads no demo users and restarts on failure', () => {
    expect(nodes.length).toBe(3);
    for (const [, s] of nodes) {
      expect(s.environment?.ADMIN_PASSWORD).toMatch(/^\$\{ADMIN_PASSWORD:\?.+\}$/);
      expect(s.environment?.DEMO).toBe('0');
      expect(s.environment?.DATABASE_URL).toMatch(/@db:5432\//);
      expect(s.restart).toBe('on-failure');
    }
  });

  it('publishes on 127.0.0.1 unless PUBLISH_ADDRESS says otherwise', () => {
    const published = Object.values(compose.services).flatMap((s) => s.ports ?? []);
    expect(published.length).toBe(2);
    for (const p of published) expect(p).toMatch(/^\$\{PUBLISH_ADDRESS:-127\.0\.0\.1\}:/);
  });

  it('has a cluster profile: three nodes on the one database behind nginx', () => {
    const cluster = Object.entries(compose.services).filter(([, s]) => s.profiles?.includes('cluster'));
    expect(cluster.map(([n]) => n).sort()).toEqual(['app-2', 'app-3', 'proxy']);
    const proxy = compose.services.proxy!;
    expect(proxy.image).toMatch(/^nginx:/);
    const conf = fs.readFileSync('deploy/nginx-cluster.conf', 'utf8');
    for (const [name] of nodes) expect(conf).toContain(`server ${name}:8080`);
    expect(proxy.volumes?.[0]).toMatch(/^\.\/deploy\/nginx-cluster\.conf:/);
  });
});

describe('Dockerfile', () => {
  const text = fs.readFileSync('Dockerfile', 'utf8');
  const stages = text.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1)!;

  it('is multi-stage, and the runtime stage holds only the bundle, production dependencies and package.json', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const copies = [...runtime.matchAll(/^COPY (?:--from=(\w+) )?(\S+) /gm)].map((m) => `${m[1] ?? 'context'}:${m[2]}`);
    expect(copies.sort()).toEqual(['build:/build/dist', 'context:bin', 'context:package.json', 'deps:/build/node_modules']);
    expect(text).toMatch(/AS deps\n[\s\S]*npm ci --omit=dev/);
  });

  it('runs as the non-root user node, which owns only its data directory, and has a health check', () => {
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/chown node:node \/app\/data/);
    expect(runtime).toMatch(/DATA_DIR=\/app\/data/);
    expect(runtime).toMatch(/^HEALTHCHECK /m);
    expect(runtime).toMatch(/\/status/);
  });

  it('sets DEMO=0 in the runtime stage, so an image never loads the demo users and their known passwords', () => {
    // Every ENV line of the stage, as name=value pairs (no line of it continues onto the next).
    const env = Object.fromEntries([...runtime.matchAll(/^ENV (.+)$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/).map((pair) => pair.split('=', 2) as [string, string])));
    expect(env.DEMO).toBe('0');
    expect(env.HOST).toBe('0.0.0.0');
  });
});
