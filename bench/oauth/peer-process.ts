// node-oidc-provider in its own process (bench/oauth/peer.mjs), for the benches that set it beside
// the hub: bench/oauth/run.ts and the two floors of bench/hot-routes.
import path from "node:path";
import { BENCH_VERIFIER } from "../lib/hub-session";
import { spawnChild, waitForAnswer } from "../lib/hub";

/**
 * Starts the provider on `port` with `store`'s environment (PEER_STORE=memory, postgres or pglite,
 * and where the store lives) and waits for its discovery document.
 */
export async function startOidcPeer(port: number, store: Record<string, string>) {
  const child = spawnChild(process.execPath, [path.join(import.meta.dirname, "peer.mjs")], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, ...store, PORT: String(port), ISSUER: `http://localhost:${port}` },
  });
  const base = `http://localhost:${port}`;
  await waitForAnswer(`${base}/.well-known/openid-configuration`);
  return { child, base };
}

/** An access token for the provider's /me, minted through its models. */
export async function mintPeerAccessToken(base: string): Promise<string> {
  return (await (await fetch(`${base}/__mint/access-token`, { method: "POST" })).json()) as string;
}

/** The provider's two clients' secret (peer.mjs: peer-client_secret_post and peer-client_secret_basic). */
export const PEER_SECRET = "peer-secret-0123456789abcdefghijklmnopqrstuv";
const PEER_REDIRECT = "http://localhost/cb";

/** An HTTP Basic authorization value (RFC 6749 §2.3.1: each part form-encoded first). */
export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

/** `n` authorization codes for `client`, minted through the provider's models, bound to BENCH_VERIFIER. */
export async function mintPeerCodes(base: string, n: number, client: string): Promise<string[]> {
  return (await fetch(`${base}/__mint/codes?n=${n}&client=${client}`, { method: "POST" })).json() as Promise<string[]>;
}

/** The token request's body for one of the provider's codes (client_secret_post carries the client in it). */
export const peerBody = (code: string, auth: "post" | "basic") =>
  new URLSearchParams({
    grant_type: "authorization_code", code, redirect_uri: PEER_REDIRECT, code_verifier: BENCH_VERIFIER,
    ...(auth === "post" ? { client_id: "peer-client_secret_post", client_secret: PEER_SECRET } : {}),
  }).toString();
