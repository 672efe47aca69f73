import { describe, expect, it } from 'vitest';
import { HTPASSWD_FLAG, NGINX_BODY_PATH, nginxConfig } from '../../bench/baselines/nginx.ts';

describe('bench: the nginx + auth_basic baseline', () => {
  const conf = nginxConfig({ dir: '/tmp/bench-nginx-x', port: 41234, contentType: 'text/plain; charset=utf-8' });

  it('runs one serving process in the foreground with every path in its temp dir and no access log', () => {
    expect(conf).toContain('daemon off;');
    expect(conf).toContain('master_process off;');
    expect(conf).toContain('worker_processes 1;');
    expect(conf).toContain('pid "/tmp/bench-nginx-x/nginx.pid";');
    expect(conf).toContain('error_log "/tmp/bench-nginx-x/error.log" warn;');
    expect(conf).toContain('access_log off;');
    for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) expect(conf).toContain(`"/tmp/bench-nginx-x/${temp}"`);
    expect(conf).toContain('listen 127.0.0.1:41234;');
    expect(conf).not.toMatch(/\/var\/|\/etc\//);
  });

  it('puts the body behind auth_basic with the htpasswd file, serves it with the server’s content type, and keeps /health open', () => {
    expect(conf).toContain('default_type "text/plain; charset=utf-8";');
    expect(conf).toMatch(new RegExp(`location = ${NGINX_BODY_PATH} \\{\\s*auth_basic "[^"]+";\\s*auth_basic_user_file "/tmp/bench-nginx-x/htpasswd";`));
    expect(conf).toContain("location = /health { return 200 'ok'; }");
  });

  it('quotes a content type with a quote in it', () => {
    expect(nginxConfig({ dir: '/d', port: 1, contentType: 'text/plain; x="y"' })).toContain('default_type "text/plain; x=\\"y\\"";');
  });

  it('keeps apr1 as the default and puts {SHA} behind the same auth_basic (the password file decides the scheme)', () => {
    const sha = nginxConfig({ dir: '/tmp/bench-nginx-x', port: 41234, contentType: 'text/plain; charset=utf-8', auth: 'sha' });
    expect(nginxConfig({ dir: '/tmp/bench-nginx-x', port: 41234, contentType: 'text/plain; charset=utf-8', auth: 'apr1' })).toBe(conf);
    expect(sha).toBe(conf);
    expect(HTPASSWD_FLAG).toEqual({ apr1: '-m', sha: '-s' });
  });

  it('serves the same body without auth_basic when auth is none, with everything else as with a password', () => {
    const open = nginxConfig({ dir: '/tmp/bench-nginx-x', port: 41234, contentType: 'text/plain; charset=utf-8', auth: 'none' });
    expect(open).not.toContain('auth_basic');
    expect(open).not.toContain('htpasswd');
    expect(open).toMatch(new RegExp(`location = ${NGINX_BODY_PATH} \\{\\s*\\}`));
    const withoutAuthLines = conf
      .split('\n')
      .filter((line) => !line.includes('auth_basic'))
      .join('\n');
    expect(open).toBe(withoutAuthLines);
  });
});
