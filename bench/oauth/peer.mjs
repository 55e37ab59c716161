// The peer of bench/oauth: node-oidc-provider configured for the hub's job (authorization code
// grant, client_secret_post and client_secret_basic, RS256 id_token, user info at /me), in its
// own process, as the hub is. Two routes of the benchmark's own mint what the timed requests
// spend (authorization codes and an access token), outside the timings, through the provider's
// models, so no sign-in screen is in the way:
//   POST /__mint/codes?n=500   → ["code", …]   (PKCE S256 with the verifier BENCH_VERIFIER)
//   POST /__mint/access-token  → "token"
//
//   PORT=3401 ISSUER=http://localhost:3401 node bench/oauth/peer.mjs
//
// Where the provider keeps its codes, grants and tokens (PEER_STORE):
//   memory    (default) a Map in the process: nothing survives a restart or is shared between
//             processes, which the provider itself says is for development only;
//   postgres  a table in the PostgreSQL database PEER_DATABASE_URL names, as a production
//             deployment keeps them and as the hub does (durable, shared by every instance);
//   pglite    the same table in an embedded PGlite in this process, under PEER_PGLITE_DIR (the
//             peer of the hub on its embedded database).
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

// The provider's adapter contract on one table, each call one prepared statement (the hub's hot
// statements are prepared too). `consumed` and expiry are columns; the payload is jsonb.
const TABLE = `CREATE TABLE IF NOT EXISTS peer_oidc (
  kind text NOT NULL, id text NOT NULL, payload jsonb NOT NULL, grant_id text, uid text,
  expires_at timestamptz, consumed_at timestamptz, PRIMARY KEY (kind, id));
CREATE INDEX IF NOT EXISTS peer_oidc_grant ON peer_oidc (grant_id);
CREATE INDEX IF NOT EXISTS peer_oidc_uid ON peer_oidc (kind, uid);`;
const STATEMENTS = {
  upsert: `INSERT INTO peer_oidc (kind, id, payload, grant_id, uid, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
           ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
  find: `SELECT payload, extract(epoch FROM consumed_at)::int AS consumed FROM peer_oidc WHERE kind = $1 AND id = $2 AND (expires_at IS NULL OR expires_at > now())`,
  findByUid: `SELECT payload, extract(epoch FROM consumed_at)::int AS consumed FROM peer_oidc WHERE kind = $1 AND uid = $2 AND (expires_at IS NULL OR expires_at > now())`,
  consume: `UPDATE peer_oidc SET consumed_at = now() WHERE kind = $1 AND id = $2`,
  destroy: `DELETE FROM peer_oidc WHERE kind = $1 AND id = $2`,
  revokeByGrantId: `DELETE FROM peer_oidc WHERE grant_id = $1`,
};

/** query(name, values) → rows, on PostgreSQL (a pool of 10, as the hub's) or on PGlite. */
async function openStore(kind) {
  if (kind === "postgres") {
    const { default: pg } = await import("pg");
    const pool = new pg.Pool({ connectionString: process.env.PEER_DATABASE_URL, max: 10 });
    await pool.query(TABLE);
    return async (name, values) => (await pool.query({ name, text: STATEMENTS[name], values })).rows;
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(process.env.PEER_PGLITE_DIR);
  await db.exec(TABLE);
  return async (name, values) => (await db.query(STATEMENTS[name], values)).rows;
}

function databaseAdapter(query) {
  const row = (rows) => rows[0] && { ...rows[0].payload, ...(rows[0].consumed ? { consumed: rows[0].consumed } : {}) };
  return class DatabaseAdapter {
    constructor(name) {
      this.name = name;
    }
    async upsert(id, payload, expiresIn) {
      await query("upsert", [this.name, id, payload, payload.grantId ?? null, payload.uid ?? null, expiresIn ?? null]);
    }
    async find(id) {
      return row(await query("find", [this.name, id]));
    }
    async findByUid(uid) {
      return row(await query("findByUid", [this.name, uid]));
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id) {
      await query("consume", [this.name, id]);
    }
    async destroy(id) {
      await query("destroy", [this.name, id]);
    }
    async revokeByGrantId(grantId) {
      await query("revokeByGrantId", [grantId]);
    }
  };
}

const store = process.env.PEER_STORE ?? "memory";
if (!["memory", "postgres", "pglite"].includes(store)) throw new Error(`PEER_STORE is memory, postgres or pglite, not ${store}`);
const Adapter = store === "memory" ? MapAdapter : databaseAdapter(await openStore(store));

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
  adapter: Adapter,
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
