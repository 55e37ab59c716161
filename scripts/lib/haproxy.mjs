// @ts-check
// The reverse proxy of the several-instances test (e2e/fleet.spec.ts): Debian's HAProxy
// (`apt-get install -y haproxy`), as docs/deployment.md runs it in front of the hub. HAPROXY_PATH
// overrides where it is looked for.
import { existsSync } from "node:fs";

export const haproxyCandidates = ["/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"];

/**
 * The path of the haproxy binary, or undefined when none is installed.
 * @param {Record<string, string | undefined>} [env]
 * @param {(path: string) => boolean} [exists]
 * @returns {string | undefined}
 */
export function haproxyPath(env = process.env, exists = existsSync) {
  if (env.HAPROXY_PATH) return exists(env.HAPROXY_PATH) ? env.HAPROXY_PATH : undefined;
  return haproxyCandidates.find((candidate) => exists(candidate));
}

export const HAPROXY_MISSING = `The several-instances test (e2e/fleet.spec.ts) runs the hub behind HAProxy, and none was found at ${haproxyCandidates.join(" or ")}.
  Install Debian's HAProxy:   sudo apt-get update && sudo apt-get install -y haproxy
  or point HAPROXY_PATH at an haproxy binary (2.2 or later), then run npm test again.`;

/**
 * The HAProxy configuration of a hub fleet: one frontend on `port`, round robin over `servers`,
 * health checks on /healthz, a request that could not reach an instance (refused connection) or
 * that an instance dropped without an answer retried on another, except a POST that may have
 * been applied; the X-Forwarded-* headers the hub reads (HUB_TRUSTED_PROXIES names this proxy).
 * Every answer names the instance that gave it (X-Hub-Instance), so the test can tell which
 * instance served what. docs/deployment.md shows the same configuration for an operator.
 * @param {{ port: number; servers: Array<{ name: string; port: number }>; logFormat?: boolean }} options
 */
export function haproxyConfig({ port, servers, logFormat = true }) {
  return `global
  maxconn 4096
${logFormat ? "  log stdout format raw local0 info\n" : ""}
defaults
  mode http
${logFormat ? "  log global\n  option httplog\n" : ""}  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # Below the hub's 65 s keep-alive timeout (server.mjs): the proxy closes an idle connection first.
  timeout http-keep-alive 55s
  # A request that never reached an instance goes to another one.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout

frontend hub
  bind 127.0.0.1:${port}
  option forwardfor
  http-request set-header X-Forwarded-Proto http
  http-request set-header X-Forwarded-Host %[req.hdr(host)]
${logFormat ? '  # The test names each request (X-Fleet-Request), so a request cut without an answer can be\n  # traced to the instance it was on.\n  http-request capture req.hdr(x-fleet-request) len 40\n  log-format "%b/%s %ST %rc %tsc %Tt %HM %hr"\n' : ""}  default_backend hubs

backend hubs
  balance roundrobin
  option httpchk
  http-check send meth GET uri /healthz
  # A POST the instance may have applied (a token exchange, an import) is not sent twice.
  http-request disable-l7-retry if METH_POST
  http-after-response set-header X-Hub-Instance %[srv_name]
${servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check inter 500ms fall 2 rise 2`).join("\n")}
`;
}
