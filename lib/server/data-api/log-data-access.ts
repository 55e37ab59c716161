// The Data API's and the summary's entries in the institution's access log
// (lib/server/audit/log-access.ts): which application read which institution's data, with which
// filters and result.
import { logAccess } from "@/lib/server/audit/log-access";

export interface TDataAccessLogEntry {
  applicationId: string;
  institutionId: string;
  endpoint: "data" | "summary";
  /** The query parameters as received (never the key). */
  filters: Record<string, string>;
  status: number;
  eventCount?: number;
  /** Names of the personal attributes the response may carry (the configuration's allowed ones). */
  attributes?: readonly string[];
}

export function logDataAccess({ endpoint, ...entry }: TDataAccessLogEntry): void {
  logAccess({ ...entry, channel: endpoint === "summary" ? "summary" : "data_api" });
}
