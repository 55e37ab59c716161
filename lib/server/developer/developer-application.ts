// The developer's view of an OAuth application: never the client secret or its hash.
import type { TMemberApplicationRow } from "./find-member-application";

export interface TDeveloperApplication {
  id: string;
  edtechId: string;
  edtechName: string;
  name: string;
  description: string;
  homepageUrl: string | null;
  clientId: string;
  redirectUris: string[];
  defaultResponseType: "code" | "access_token" | "id_token";
  createdAt: Date;
  updatedAt: Date;
}

export function toDeveloperApplication(row: TMemberApplicationRow): TDeveloperApplication {
  return {
    id: row.id,
    edtechId: row.edtechId,
    edtechName: row.edtech.name,
    name: row.name,
    description: row.description,
    homepageUrl: row.homepageUrl,
    clientId: row.clientId,
    redirectUris: row.redirectUris,
    defaultResponseType: row.defaultResponseType,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
