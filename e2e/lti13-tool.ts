// An LTI 1.3 tool that is not ours: ltijs (IMS-certified, https://cvmcosta.github.io/ltijs) with its
// Sequelize plugin on PostgreSQL (docs/decisions/029-ltijs-for-lti13-interop.md). It prints what it
// received as JSON, so the test reads what a real tool library made of the hub's messages.
import { Client } from "pg";
import { Provider, type LtijsToken } from "ltijs";
import Database from "ltijs-sequelize";

export interface TLtijsTool {
  url: string;
  close(): Promise<void>;
}

/** The database ltijs keeps its platforms, keys, nonces and sessions in; null when unreachable. */
async function ltijsDatabase(port: number): Promise<URL | null> {
  const admin = new URL(process.env.LTIJS_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgresql://postgres:postgres@localhost:5432/postgres");
  const name = `hub_ltijs_${port}`;
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url;
}

const page = (id: string, value: unknown) => `<!doctype html><meta charset="utf-8"><title>ltijs</title><pre id="${id}">${JSON.stringify(value).replace(/</g, "\\u003c")}</pre>`;

function summary(token: LtijsToken, members: unknown) {
  return { user: token.user, userInfo: token.userInfo, deploymentId: token.deploymentId, context: token.platformContext, members };
}

/**
 * Starts the tool on `port`; null when there is no PostgreSQL for it. A launch that carries a
 * memberships URL reads the class's members (NRPS) before answering; the content picker answers
 * at once with one LtiResourceLink (ltijs's own Deep Linking response form).
 */
export async function startLtijsTool(port: number): Promise<TLtijsTool | null> {
  const dbUrl = await ltijsDatabase(port);
  if (!dbUrl) return null;
  const plugin = new Database(dbUrl.pathname.slice(1), decodeURIComponent(dbUrl.username), decodeURIComponent(dbUrl.password), {
    host: dbUrl.hostname,
    port: Number(dbUrl.port || 5432),
    dialect: "postgres",
    logging: false,
  });
  // devMode: the hub and the tool are both on localhost over http in the test, so the tool's
  // state cookie (SameSite=None; Secure in production) is not required.
  Provider.setup("ltijs-interop-test-key", { plugin }, { appRoute: "/", loginRoute: "/login", keysetRoute: "/keys", cookies: { secure: false, sameSite: "" }, devMode: true });
  Provider.onConnect(async (token, _req, res) => {
    const members = token.platformContext.namesRoles ? (await Provider.NamesAndRoles.getMembers(token)).members : null;
    res.send(page("ltijs-launch", summary(token, members)));
  });
  Provider.onDeepLinking(async (token, _req, res) => {
    const items = [{ type: "ltiResourceLink", title: "Atividade escolhida no ltijs", url: `http://localhost:${port}/`, custom: { atividade: "a1" } }];
    res.send(await Provider.DeepLinking.createDeepLinkingForm(token, items, { message: "Conteúdo enviado pelo ltijs." }));
  });
  Provider.onInvalidToken((_req, res) => res.status(401).send(page("ltijs-refused", res.locals.err ?? null)));
  await Provider.deploy({ port, silent: true });
  return {
    url: `http://localhost:${port}`,
    close: async () => {
      await Provider.close({ silent: true });
    },
  };
}

export async function registerHubAtLtijs(facts: Record<string, string>): Promise<void> {
  await Provider.registerPlatform({
    url: facts.issuer!,
    name: "Hub Educacional",
    clientId: facts.clientId!,
    authenticationEndpoint: facts.authorizationEndpoint!,
    accesstokenEndpoint: facts.tokenEndpoint!,
    authConfig: { method: "JWK_SET", key: facts.jwksUrl! },
  });
}

export { Provider };
