// The peer of bench/oauth: node-oidc-provider configured for the hub's job (authorization code
// grant, client_secret_post and client_secret_basic, RS256 id_token, user info at /me), in its
// own process, as the hub is. Two routes of the benchmark's own mint what the timed requests
// spend (authorization codes and an access token), outside the timings, through the provider's
// models, so no sign-in screen is in the way:
//   POST /__mint/codes?n=500   → ["code", …]   (PKCE S256 with the verifier BENCH_VERIFIER)
//   POST /__mint/access-token  → "token"
//
//   PORT=3401 ISSUER=http://localhost:3401 node bench/oauth/peer.mjs
import { createHash, generateKeyPairSync } from "node:crypto";
import http from "node:http";
import Provider from "oidc-provider";

const port = Number(process.env.PORT ?? 3401);
const issuer = process.env.ISSUER ?? `http://localhost:${port}`;
export const REDIRECT_URI = "http://localhost/cb";

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: "jwk" }), kid: "bench", alg: "RS256", use: "sig" };

const clients = ["client_secret_post", "client_secret_basic"].map((method) => ({
  client_id: `peer-${method}`,
  client_secret: "peer-secret-0123456789abcdefghijklmnopqrstuv",
  redirect_uris: [REDIRECT_URI],
  grant_types: ["authorization_code"],
  response_types: ["code"],
  token_endpoint_auth_method: method,
  id_token_signed_response_alg: "RS256",
}));

// The provider's own in-memory adapter is an LRU of 1,000 entries: a benchmark's codes and grants
// would evict one another (and the user info token). The same store without the eviction:
const stores = new Map();
const grants = new Map();
class MapAdapter {
  constructor(name) {
    this.name = name;
    if (!stores.has(name)) stores.set(name, new Map());
    this.store = stores.get(name);
  }
  async upsert(id, payload) {
    this.store.set(id, payload);
    if (payload.grantId) {
      if (!grants.has(payload.grantId)) grants.set(payload.grantId, []);
      grants.get(payload.grantId).push([this.store, id]);
    }
  }
  async find(id) {
    return this.store.get(id);
  }
  async findByUid(uid) {
    for (const payload of this.store.values()) if (payload.uid === uid) return payload;
    return undefined;
  }
  async findByUserCode() {
    return undefined;
  }
  async consume(id) {
    const payload = this.store.get(id);
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id) {
    this.store.delete(id);
  }
  async revokeByGrantId(grantId) {
    for (const [store, id] of grants.get(grantId) ?? []) store.delete(id);
    grants.delete(grantId);
  }
}

// The same job as the hub's: the hub's access token is an RS256 JWT (RFC 9068), so the peer's is
// too, through a resource server (PEER_OPAQUE_ACCESS_TOKENS=1: the provider's default opaque token).
const RESOURCE = "urn:hub:api";
const jwtAccessTokens = process.env.PEER_OPAQUE_ACCESS_TOKENS !== "1";
const resourceIndicators = {
  enabled: true,
  defaultResource: () => RESOURCE,
  useGrantedResource: () => true,
  getResourceServerInfo: () => ({ scope: "openid", audience: RESOURCE, accessTokenFormat: "jwt", jwt: { sign: { alg: "RS256" } } }),
};

const provider = new Provider(issuer, {
  adapter: MapAdapter,
  clients,
  jwks: { keys: [jwk] },
  features: { devInteractions: { enabled: false }, userinfo: { enabled: true }, ...(jwtAccessTokens ? { resourceIndicators } : {}) },
  // The hub's tokens stand on their own rows, not on a browser session: the same here.
  expiresWithSession: () => false,
  claims: { openid: ["sub"] },
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  pkce: { required: () => false },
});
provider.proxy = true;

export const BENCH_VERIFIER = "bench-verifier-0123456789abcdefghijklmnopqrstuvwxyz0123";
const challenge = createHash("sha256").update(BENCH_VERIFIER).digest("base64url");

async function grantFor(clientId, accountId) {
  const grant = new provider.Grant({ accountId, clientId });
  grant.addOIDCScope("openid");
  if (jwtAccessTokens) grant.addResourceScope(RESOURCE, "openid");
  return grant.save();
}

async function mintCodes(n, clientId) {
  const codes = [];
  const accountId = "bench-account";
  for (let i = 0; i < n; i++) {
    const grantId = await grantFor(clientId, accountId);
    const code = new provider.AuthorizationCode({
      accountId, clientId, grantId, scope: "openid", redirectUri: REDIRECT_URI,
      codeChallenge: challenge, codeChallengeMethod: "S256", nonce: `n-${i}`, ...(jwtAccessTokens ? { resource: RESOURCE } : {}),
    });
    codes.push(await code.save());
  }
  return codes;
}

const callback = provider.callback();
http
  .createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    if (req.method === "POST" && url.pathname === "/__mint/codes") {
      const codes = await mintCodes(Number(url.searchParams.get("n") ?? 100), url.searchParams.get("client") ?? clients[0].client_id);
      res.setHeader("content-type", "application/json");
      return res.end(JSON.stringify(codes));
    }
    if (req.method === "POST" && url.pathname === "/__mint/access-token") {
      const clientId = clients[0].client_id;
      const grantId = await grantFor(clientId, "bench-account");
      const token = new provider.AccessToken({ accountId: "bench-account", clientId, grantId, scope: "openid", client: await provider.Client.find(clientId) });
      res.setHeader("content-type", "application/json");
      return res.end(JSON.stringify(await token.save()));
    }
    return callback(req, res);
  })
  .listen(port, () => console.log(`peer ready ${issuer}`));
