import { env } from "@/lib/env";
import { fromZodError } from "@/lib/errors";
import {
  DADOS_ORDER,
  DATA_API_DEFAULT_LIMIT,
  DATA_QUERY_PARAMETERS,
  ENTITIES_WITH_PERSONAL_ATTRIBUTES,
  ZDataQuerySchema,
  queryInput,
  requestedEntities,
  requestedKinds,
  type TEntityName,
  type TEventKind,
  type TPersonalAttribute,
} from "@/lib/validations/data-api";
import { authorizeDataAccess } from "./authorize-data-access";
import { encodeCursor, laterPosition, type TCursorPosition } from "./cursor";
import { logDataAccess } from "./log-data-access";
import { JsonText } from "@/lib/server/http/json-text";
import { recordTextFilter } from "./privacy";
import { queryEvents, type TEventRow } from "./query-events";
import { toEventFilters } from "./to-event-filters";
import { formatInZone } from "./time-zone";

export interface TDataEvent {
  id: string;
  evento: TEventKind;
  ocorridoEm: string;
  registro: Record<string, unknown>;
}

export interface TDataResponse {
  configuracao: { conjuntoDadosUsuario: { atributosPermitidos: TPersonalAttribute[]; atributosAnonimizados: TPersonalAttribute[] } };
  dados: Partial<Record<TEntityName, TDataEvent[]>>;
  paginacao: { limite: number; proximoCursor: string | null; cursorRetomada: string };
}

const PARAMETER_NAMES = Object.keys(DATA_QUERY_PARAMETERS);

/**
 * GET /manager/v1/data/{org_id}: authorizes (status order in authorize-data-access.ts), then
 * validates the query (400 naming the parameter), reads one page of events of the institution
 * and its descendants, and applies the institution's attribute rules for the key's application.
 */
export async function readDataPage(options: {
  apiKey: string | null | undefined;
  orgId: string | undefined;
  searchParams: URLSearchParams;
}): Promise<JsonText<TDataResponse>> {
  const input = queryInput(options.searchParams, PARAMETER_NAMES);
  const audit = { endpoint: "data" as const, filters: input };
  const grant = await authorizeDataAccess({ apiKey: options.apiKey, orgId: options.orgId, audit });
  const log = { ...audit, applicationId: grant.key.applicationId, institutionId: grant.institution.id };

  const parsed = ZDataQuerySchema.safeParse(input);
  if (!parsed.success) {
    const error = fromZodError(parsed.error);
    logDataAccess({ ...log, status: error.status });
    throw error;
  }
  const query = parsed.data;
  const timeZone = env().HUB_TIME_ZONE;
  const entities = requestedEntities(query);
  const limit = query.limit ?? DATA_API_DEFAULT_LIMIT;
  const page = await queryEvents({
    filters: { ...toEventFilters(query, timeZone), institutionIds: grant.subtree.map((i) => i.id), entities, kinds: requestedKinds(query) },
    after: query.cursor,
    limit,
  });

  const last = page.rows.at(-1);
  const lastPosition: TCursorPosition | undefined = last ? { txid: last.txid, seq: last.seq } : undefined;
  // Caught up: everything below the horizon was examined, so a later read may start there
  // (docs/decisions/003-gap-free-paging.md).
  const caughtUp = laterPosition({ txid: page.horizon, seq: "0" }, lastPosition ?? query.cursor ?? { txid: "0", seq: "0" });
  const resume = page.hasMore ? lastPosition! : caughtUp;

  logDataAccess({ ...log, status: 200, eventCount: page.rows.length });
  const configuracao: TDataResponse["configuracao"] = {
    conjuntoDadosUsuario: { atributosPermitidos: grant.configuration.allowed, atributosAnonimizados: grant.configuration.anonymized },
  };
  const paginacao: TDataResponse["paginacao"] = {
    limite: limit,
    proximoCursor: page.hasMore ? encodeCursor(lastPosition!) : null,
    cursorRetomada: encodeCursor(resume),
  };
  const registro = recordTextFilter(grant.configuration, grant.key.applicationId);
  return writeDataPage({ rows: page.rows, entities, timeZone, registro, configuracao, paginacao });
}

/**
 * The page as UTF-8 JSON, written directly: records are spliced as the database wrote them
 * (edited only where an attribute rule applies), so no row becomes an object and back. Each
 * entity's events are joined from a flat list of pieces and encoded on their own: one flat
 * string per entity, not a rope of a thousand templates, which halves this step's CPU
 * (docs/performance.md).
 */
export function writeDataPage(options: {
  rows: TEventRow[];
  entities: readonly TEntityName[];
  timeZone: string;
  registro: (json: string) => string;
  configuracao: TDataResponse["configuracao"];
  paginacao: TDataResponse["paginacao"];
}): JsonText<TDataResponse> {
  const { rows, timeZone, registro } = options;
  const byEntity = new Map<TEntityName, TEventRow[]>();
  for (const entity of DADOS_ORDER) if (options.entities.includes(entity)) byEntity.set(entity, []);
  for (const row of rows) byEntity.get(row.entity)!.push(row);

  const chunks: Buffer[] = [Buffer.from(`{"configuracao":${JSON.stringify(options.configuracao)},"dados":{`)];
  let separator = "";
  for (const [entity, events] of byEntity) {
    const filter = ENTITIES_WITH_PERSONAL_ATTRIBUTES.has(entity) ? registro : null;
    const pieces: string[] = [`${separator}"${entity}":[`];
    separator = ",";
    for (let i = 0; i < events.length; i++) {
      const row = events[i]!;
      // id (uuid), evento (enum) and ocorridoEm (digits and signs) never need escaping.
      pieces.push(i === 0 ? '{"id":"' : ',{"id":"', row.id, '","evento":"', row.kind, '","ocorridoEm":"', formatInZone(row.occurredAtMs, timeZone));
      pieces.push('","registro":', filter ? filter(row.record) : row.record, "}");
    }
    pieces.push("]");
    chunks.push(Buffer.from(pieces.join("")));
  }
  chunks.push(Buffer.from(`},"paginacao":${JSON.stringify(options.paginacao)}}`));
  return new JsonText(Buffer.concat(chunks));
}
