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
  type TConfiguracao,
  type TEventKind,
} from "@/lib/validations/data-api";
import { authorizeDataAccess, type TDataReader } from "./authorize-data-access";
import { encodeCursor, laterPosition, type TCursorPosition } from "@/lib/data-api/cursor";
import { logDataAccess } from "./log-data-access";
import { metrics } from "@/lib/server/metrics/registry.mjs";
import { JsonStream, JsonText } from "@/lib/server/http/json-text";
import { recordTextFilterByRole, toConfiguracao } from "./privacy";
import { pairwiseIds, type TPairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { PERSON_ENTITIES, rewritePersonEvents } from "@/lib/server/privacy/pairwise-records";
import { queryEvents, queryEventsThenPeople, type TEventRow } from "./query-events";
import { database } from "@/lib/server/db/database";
import { readsMayLag } from "@/lib/server/db/replicas";
import { toEventFilters, withGlobalUserId } from "./to-event-filters";
import { formatInZone } from "./time-zone";

export interface TDataEvent {
  id: string;
  evento: TEventKind;
  ocorridoEm: string;
  registro: Record<string, unknown>;
}

export interface TDataResponse {
  configuracao: TConfiguracao;
  dados: Partial<Record<TEntityName, TDataEvent[]>>;
  /** `limite` is null when the request asked for everything (neither limit nor cursor). */
  paginacao: { limite: number | null; proximoCursor: string | null; cursorRetomada: string };
}

const PARAMETER_NAMES = Object.keys(DATA_QUERY_PARAMETERS);

type TReadOptions = {
  apiKey: string | null | undefined;
  orgId: string | undefined;
  searchParams: URLSearchParams;
  /** Reads as this application without a key (the webhook deliverer, readFeedPage). */
  reader?: TDataReader;
  /** Extra entries of the access log's filters (which webhook endpoint read). */
  logFilters?: Record<string, string>;
  /** Whether a page without events is written in the access log (a webhook's idle polls are not). */
  logEmpty?: boolean;
};

/** Events read per statement when a whole feed is streamed: one page's worth of memory at a time. */
const STREAM_CHUNK = 1000;
/** Pieces of eventPieces encoded per Buffer (each event is ten pieces): about 100 events, ≈ 35 KB. */
const PIECES_PER_BUFFER = 1000;

/**
 * `before`, `pieces` and `after` as UTF-8 Buffers of about 100 events each. Joined whole, a page's
 * or chunk's events make a string of 150–350 KB, which V8 allocates in its large-object space,
 * freed only by a full collection: under the Data API's load that garbage was most of the
 * server's RSS (docs/performance.md). Strings of 35 KB die young.
 */
function encodePieces(before: string[], pieces: string[], after: string[]): Buffer[] {
  const buffers: Buffer[] = [];
  const all = [...before, ...pieces, ...after];
  for (let at = 0; at < all.length; at += PIECES_PER_BUFFER) buffers.push(Buffer.from(all.slice(at, at + PIECES_PER_BUFFER).join("")));
  return buffers;
}

/**
 * Authorizes (status order in authorize-data-access.ts), then validates the query (400 naming
 * the parameter): what every read of GET /manager/v1/data/{org_id} starts with.
 */
async function prepareRead(options: TReadOptions) {
  const input = queryInput(options.searchParams, PARAMETER_NAMES);
  const audit = { endpoint: "data" as const, filters: { ...input, ...options.logFilters } };
  const grant = await authorizeDataAccess({ apiKey: options.apiKey, orgId: options.orgId, audit, ...(options.reader ? { reader: options.reader } : {}) });
  const log = { ...audit, applicationId: grant.key.applicationId, institutionId: grant.institution.id };

  const parsed = ZDataQuerySchema.safeParse(input);
  if (!parsed.success) {
    const error = fromZodError(parsed.error);
    logDataAccess({ ...log, status: error.status });
    throw error;
  }
  // Ids of people are the application's own (pairwise); the user_id it sends back is one of them.
  const ids = await pairwiseIds({ kind: "application", id: grant.key.applicationId });
  const query = withGlobalUserId(parsed.data, ids);
  const timeZone = env().HUB_TIME_ZONE;
  const entities = requestedEntities(query);
  // The access log names the personal attributes this read may carry (its values never): those
  // some role's records may carry.
  const configuracao = toConfiguracao(grant.configurations);
  const attributes = entities.some((e) => ENTITIES_WITH_PERSONAL_ATTRIBUTES.has(e)) ? configuracao.conjuntoDadosUsuario.atributosPermitidos : [];
  return {
    query,
    log: { ...log, attributes },
    timeZone,
    entities,
    filters: { ...toEventFilters(query, timeZone), institutionIds: grant.subtree.map((i) => i.id), entities, kinds: requestedKinds(query), view: grant.view },
    configuracao,
    // Each usuario record with the rule of its own perfil.
    registro: recordTextFilterByRole(grant.configurations, grant.key.applicationId),
    ids,
    logEmpty: options.logEmpty ?? true,
    /** Who reads, for the metrics: a partner with its key, or the webhook deliverer. */
    reader: options.reader ? ("webhook" as const) : ("api_key" as const),
  };
}

/**
 * GET /manager/v1/data/{org_id}. A request with neither `limit` nor `cursor` (the call as the
 * contract shows it) gets every matching event, streamed; a request with either gets one page.
 */
export async function readData(options: TReadOptions): Promise<JsonText<TDataResponse> | JsonStream> {
  // The events may come from a replica; the key, the rules and the grants come from the primary
  // (prepareRead reads them with database()), so a revoked key or access is refused at once
  // (docs/decisions/042-read-replicas.md).
  return readsMayLag(async () => {
    const read = await prepareRead(options);
    if (read.query.limit === undefined && read.query.cursor === undefined) return streamWholeFeed(read);
    return (await pageOf(read)).body;
  });
}

/**
 * One page of events of the institution and its descendants, with the institution's attribute
 * rules for the key's application applied (`limit` defaults to 1000).
 */
export async function readDataPage(options: TReadOptions): Promise<JsonText<TDataResponse>> {
  return readsMayLag(async () => (await pageOf(await prepareRead(options))).body);
}

/** A page of the feed with where it starts and ends, for a reader that keeps its own cursor. */
export interface TFeedPage {
  body: JsonText<TDataResponse>;
  eventCount: number;
  /** The position of the page's last event (undefined when it has none). */
  last: TCursorPosition | undefined;
  /** Where the next read starts: proximoCursor on a full page, cursorRetomada otherwise. */
  resume: TCursorPosition;
  hasMore: boolean;
  /** When the page's oldest event occurred (ms since the epoch); undefined when it has none. */
  oldestOccurredAtMs: number | undefined;
}

/**
 * One page exactly as GET /manager/v1/data/{org_id} answers it to `reader` (the same
 * authorization, rules, pairwise ids and JSON), with its positions: the webhook deliverer's way
 * into the feed (docs/webhooks.md). Refusals throw the same AppErrors as the API.
 */
export async function readFeedPage(options: Omit<TReadOptions, "apiKey"> & { reader: TDataReader }): Promise<TFeedPage> {
  return pageOf(await prepareRead({ ...options, apiKey: null }));
}

async function pageOf(read: Awaited<ReturnType<typeof prepareRead>>): Promise<TFeedPage> {
  const { query, log, timeZone, entities, filters, configuracao, registro, ids } = read;
  const limit = query.limit ?? DATA_API_DEFAULT_LIMIT;
  const page = await queryEvents({ filters, after: query.cursor, limit });

  const last = page.rows.at(-1);
  const lastPosition: TCursorPosition | undefined = last ? { txid: last.txid, seq: last.seq } : undefined;
  // Caught up: everything below the horizon was examined, so a later read may start there
  // (docs/decisions/003-gap-free-paging.md).
  const caughtUp = laterPosition({ txid: page.horizon, seq: "0" }, lastPosition ?? query.cursor ?? { txid: "0", seq: "0" });
  const resume = page.hasMore ? lastPosition! : caughtUp;

  if (page.rows.length > 0 || read.logEmpty) {
    logDataAccess({ ...log, status: 200, eventCount: page.rows.length });
    countServed(read.reader, "page", page.rows.length);
  }
  const paginacao: TDataResponse["paginacao"] = {
    limite: limit,
    proximoCursor: page.hasMore ? encodeCursor(lastPosition!) : null,
    cursorRetomada: encodeCursor(resume),
  };
  const body = writeDataPage({ rows: page.rows, entities, timeZone, registro, configuracao, paginacao, ids });
  let oldestOccurredAtMs: number | undefined;
  for (const row of page.rows) if (oldestOccurredAtMs === undefined || row.occurredAtMs < oldestOccurredAtMs) oldestOccurredAtMs = row.occurredAtMs;
  return { body, eventCount: page.rows.length, last: lastPosition, resume, hasMore: page.hasMore, oldestOccurredAtMs };
}

/**
 * The Data API's pages and events in the metrics (docs/operations.md), beside the access log's
 * entry: a webhook worker's read that found nothing (a caught-up poll) is neither.
 */
function countServed(reader: "api_key" | "webhook", mode: "page" | "feed", events: number): void {
  const labels = { reader, mode };
  const { dataApiPages, dataApiEvents } = metrics();
  dataApiPages.inc(labels);
  dataApiEvents.inc(labels, events);
}

/**
 * Every matching event, as one JSON document written while it is read: each entity's events in
 * feed order, STREAM_CHUNK at a time, all below the horizon of the first statement (so the
 * statements agree on what exists), pulled only as fast as the client reads. Three things run at
 * once (issue #24's full sync walk): the next chunk's events are read as soon as this chunk's are
 * (its cursor is their last position), this chunk's people are looked up on another connection
 * (queryEventsThenPeople), and the hub writes and sends the chunk before. Memory is a few chunks
 * whatever the feed's size. `paginacao.limite` is null: nothing was cut.
 */
function streamWholeFeed(read: Awaited<ReturnType<typeof prepareRead>>): JsonStream {
  const { log, timeZone, entities, filters, configuracao, registro, ids } = read;
  const order = DADOS_ORDER.filter((entity) => entities.includes(entity));
  let horizon: string | undefined;
  // Chosen now, inside the request's scope: the chunks are read later, as the client pulls them.
  let source = database("may-lag");
  const fetchChunk = (index: number, after: TCursorPosition | undefined) => {
    const chunk = queryEventsThenPeople({ filters: { ...filters, entities: [order[index]!] }, after, limit: STREAM_CHUNK, horizon, source });
    // Awaited on a later turn; if the client has gone by then, nobody will: never unhandled.
    chunk.catch(() => undefined);
    return { index, chunk };
  };
  let count = 0;
  return new JsonStream(async function* () {
    yield Buffer.from(`{"configuracao":${JSON.stringify(configuracao)},"dados":{`);
    let pending = order.length > 0 ? fetchChunk(0, undefined) : undefined;
    let first = true;
    while (pending) {
      const { index } = pending;
      const entity = order[index]!;
      if (first) yield Buffer.from(`${index === 0 ? "" : ","}"${entity}":[`);
      const page = await pending.chunk;
      horizon ??= page.horizon;
      // The first chunk may have moved to the primary (a replica behind a grant): the rest follow.
      source = page.source;
      const last = page.rows.at(-1);
      const more = page.hasMore && last !== undefined;
      // The next chunk's events are read while this chunk's people are looked up and it is written.
      pending = more ? fetchChunk(index, { txid: last.txid, seq: last.seq }) : index + 1 < order.length ? fetchChunk(index + 1, undefined) : undefined;
      await page.people;
      const { rows } = page;
      const filter = ENTITIES_WITH_PERSONAL_ATTRIBUTES.has(entity) ? registro : null;
      if (rows.length) yield* encodePieces(first ? [] : [","], eventPieces(rows, timeZone, filter, ids), []);
      count += rows.length;
      first &&= rows.length === 0;
      if (more) continue;
      yield Buffer.from("]");
      first = true;
    }
    const paginacao = { limite: null, proximoCursor: null, cursorRetomada: encodeCursor({ txid: horizon ?? "0", seq: "0" }) };
    yield Buffer.from(`},"paginacao":${JSON.stringify(paginacao)}}`);
    logDataAccess({ ...log, status: 200, eventCount: count });
    countServed(read.reader, "feed", count);
  });
}

/**
 * The JSON of each event (`{"id":…,"registro":…}`), comma-joined by position, as pieces. `rows`
 * are of one entity. With `ids`, an event about a person, and the person ids in its record, are
 * the application's pairwise ids (all of the batch translated at once).
 */
function eventPieces(rows: TEventRow[], timeZone: string, filter: ((json: string) => string) | null, ids: TPairwiseIds | undefined): string[] {
  const records = rows.map((row) => (filter ? filter(row.record) : row.record));
  const entity = rows[0]?.entity;
  const events = ids && entity && PERSON_ENTITIES.has(entity) ? rewritePersonEvents(ids, entity, rows.map((row, i) => ({ eventId: row.id, record: records[i]! }))) : null;
  const pieces: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    // id (uuid), evento (enum) and ocorridoEm (digits and signs) never need escaping.
    const id = events ? events[i]!.eventId : row.id;
    pieces.push(i === 0 ? '{"id":"' : ',{"id":"', id, '","evento":"', row.kind, '","ocorridoEm":"', formatInZone(row.occurredAtMs, timeZone));
    pieces.push('","registro":', events ? events[i]!.record : records[i]!, "}");
  }
  return pieces;
}

/**
 * The page as UTF-8 JSON, written directly: records are spliced as the database wrote them
 * (edited only where an attribute rule applies), so no row becomes an object and back. Each
 * entity's events are joined from a flat list of pieces and encoded a hundred events at a time
 * (encodePieces): flat strings, not a rope of a thousand templates, which halves this step's
 * CPU (docs/performance.md).
 */
export function writeDataPage(options: {
  rows: TEventRow[];
  entities: readonly TEntityName[];
  timeZone: string;
  registro: (json: string) => string;
  configuracao: TDataResponse["configuracao"];
  paginacao: TDataResponse["paginacao"];
  /** The application's pairwise ids; without it every id is global (tests of the layout). */
  ids?: TPairwiseIds;
}): JsonText<TDataResponse> {
  const { rows, timeZone, registro } = options;
  const byEntity = new Map<TEntityName, TEventRow[]>();
  for (const entity of DADOS_ORDER) if (options.entities.includes(entity)) byEntity.set(entity, []);
  for (const row of rows) byEntity.get(row.entity)!.push(row);

  const chunks: Buffer[] = [Buffer.from(`{"configuracao":${JSON.stringify(options.configuracao)},"dados":{`)];
  let separator = "";
  for (const [entity, events] of byEntity) {
    const filter = ENTITIES_WITH_PERSONAL_ATTRIBUTES.has(entity) ? registro : null;
    chunks.push(...encodePieces([`${separator}"${entity}":[`], eventPieces(events, timeZone, filter, options.ids), ["]"]));
    separator = ",";
  }
  chunks.push(Buffer.from(`},"paginacao":${JSON.stringify(options.paginacao)}}`));
  return new JsonText(Buffer.concat(chunks));
}
