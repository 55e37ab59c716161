// The part of ltijs (https://cvmcosta.github.io/ltijs) the LTI 1.3 interop test uses; the package ships no types.
declare module "ltijs" {
  import type { Request, Response } from "express";
  export interface LtijsToken {
    iss: string;
    user: string;
    userInfo: { name?: string; email?: string; given_name?: string; family_name?: string };
    deploymentId: string;
    platformContext: Record<string, unknown> & { roles?: string[]; resource?: { id: string; title?: string }; context?: { id: string }; namesRoles?: { context_memberships_url: string } };
  }
  type Handler = (token: LtijsToken, req: Request, res: Response) => unknown;
  interface ProviderType {
    setup(key: string, database: { plugin: unknown }, options: Record<string, unknown>): ProviderType;
    deploy(options: { port: number; silent?: boolean }): Promise<boolean>;
    close(options?: { silent?: boolean }): Promise<boolean>;
    onConnect(handler: Handler): void;
    onDeepLinking(handler: Handler): void;
    onInvalidToken(handler: (req: Request, res: Response) => unknown): void;
    registerPlatform(platform: {
      url: string;
      name: string;
      clientId: string;
      authenticationEndpoint: string;
      accesstokenEndpoint: string;
      authConfig: { method: "JWK_SET"; key: string };
    }): Promise<unknown>;
    DeepLinking: { createDeepLinkingForm(token: LtijsToken, items: object[], options?: { message?: string }): Promise<string> };
    NamesAndRoles: { getMembers(token: LtijsToken, options?: { limit?: number; pages?: number; url?: string }): Promise<{ members: Array<Record<string, unknown>>; next?: string }> };
    app: { get(path: string, handler: (req: Request, res: Response) => unknown): void };
  }
  export const Provider: ProviderType;
}
declare module "ltijs-sequelize" {
  export default class Database {
    constructor(database: string, user: string, password: string, options: Record<string, unknown>);
  }
}
