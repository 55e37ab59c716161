// The part of node-oidc-provider 9 (https://github.com/panva/node-oidc-provider) that the test
// harness test/fixtures/upstream-provider.ts uses; the package ships no types and
// @types/oidc-provider is not installed. Koa's context is declared here too (no @types/koa).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  /** What an adapter stores: one model instance (AuthorizationCode, Session, Grant…). */
  export interface AdapterPayload {
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: number;
    [property: string]: unknown;
  }

  /** The storage contract, one instance per model name (docs: "adapter"). */
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }
  export type AdapterConstructor = new (name: string) => Adapter;

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export interface Grant {
    readonly jti: string;
    accountId?: string;
    clientId?: string;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export interface GrantConstructor {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  /** ctx.oidc: defined on the requests the provider's router matched. */
  export interface OIDCContext {
    readonly route?: string;
    readonly client?: { readonly clientId: string };
    readonly session?: { readonly accountId?: string; grantIdFor(clientId: string): string | undefined };
    readonly result?: { consent?: { grantId?: string } };
  }

  /** Koa's context, the members the harness reads and writes. */
  export interface KoaContextWithOIDC {
    readonly method: string;
    readonly path: string;
    readonly query: Readonly<Record<string, string | string[] | undefined>>;
    status: number;
    body: unknown;
    type: string;
    readonly response: { get(field: string): string };
    /** Whether the response's headers were already written (some routes answer on the Node response). */
    readonly headerSent: boolean;
    /** Sets a response header. */
    set(field: string, value: string): void;
    readonly oidc?: OIDCContext;
  }
  export type Middleware = (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

  export interface ErrorOut {
    error: string;
    error_description?: string;
  }

  /** The options the harness sets with callbacks (typed), the rest as the docs describe them. */
  export interface Configuration {
    adapter?: AdapterConstructor;
    findAccount?: (ctx: KoaContextWithOIDC, id: string) => Account | undefined | Promise<Account | undefined>;
    loadExistingGrant?: (ctx: KoaContextWithOIDC) => Promise<Grant | undefined>;
    renderError?: (ctx: KoaContextWithOIDC, out: ErrorOut, error: Error) => void | Promise<void>;
    clientBasedCORS?: (ctx: KoaContextWithOIDC, origin: string, client: unknown) => boolean;
    pkce?: { required: (ctx: KoaContextWithOIDC, client: unknown) => boolean };
    [option: string]: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    readonly Grant: GrantConstructor;
    /** A Node.js request listener (Koa's app.callback()). */
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    /** Adds a Koa middleware before the provider's own (pre- and post-processing). */
    use(middleware: Middleware): void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
