// The OneRoster 1.2 status payload (imsx_StatusInfoDType) and the one error type every
// OneRoster endpoint throws.
//
// Source: the Rostering service's OpenAPI document, onerosterv1p2rostersservice_openapi3_v1p0.json
// (1EdTech, 19 September 2022), components.schemas.imsx_StatusInfoDType / imsx_CodeMinorDType /
// imsx_CodeMinorFieldDType and the `responses` of every GET operation.

/** imsx_StatusInfoDType.imsx_codeMajor enum. */
export type TCodeMajor = "success" | "processing" | "failure" | "unsupported";

/** imsx_StatusInfoDType.imsx_severity enum. */
export type TSeverity = "status" | "warning" | "error";

/**
 * imsx_CodeMinorFieldDType.imsx_codeMinorFieldValue enum, exactly as 1.2 publishes it. 1.1's
 * `invalid_sort_field`, `invalid_blank_selection_field` and the spaced forms ("full success",
 * "unknown object") are not in it, nor is any `invalid_limit_offset`: sending them would fail a
 * strict 1.2 consumer's schema validation, so bad sort and paging parameters use `invaliddata`.
 */
export type TCodeMinor =
  | "fullsuccess"
  | "invalid_filter_field"
  | "invalid_selection_field"
  | "invaliddata"
  | "unauthorisedrequest"
  | "forbidden"
  | "server_busy"
  | "unknownobject"
  | "internal_server_error";

export type TErrorCodeMinor = Exclude<TCodeMinor, "fullsuccess">;

/**
 * HTTP status per code minor, from the `responses` of the 1.2 GET operations: 400 "Either an
 * invalid selection field or invalid filter selection was supplied ... 'invalid_selection_field'
 * or 'invalid_filter_field'"; 401 "'unauthorisedrequest'"; 403 "'forbidden'"; 404 "the supplied
 * identifier is unknown ... 'Unknown Object'"; 429 "'server_busy'. Retry at a later time";
 * 500 "'internal_server_error'". `invaliddata` has no response of its own; a malformed request
 * parameter is a 400.
 */
export const CODE_MINOR_STATUS: Readonly<Record<TErrorCodeMinor, number>> = {
  invalid_filter_field: 400,
  invalid_selection_field: 400,
  invaliddata: 400,
  unauthorisedrequest: 401,
  forbidden: 403,
  unknownobject: 404,
  server_busy: 429,
  internal_server_error: 500,
};

/** The 404 response: "The statement 'Unknown Object' should also be presented." */
const DEFAULT_DESCRIPTION: Readonly<Record<TErrorCodeMinor, string>> = {
  invalid_filter_field: "Invalid filter.",
  invalid_selection_field: "Invalid field selection.",
  invaliddata: "Invalid request data.",
  unauthorisedrequest: "The request was not correctly authorised.",
  forbidden: "Forbidden.",
  unknownobject: "Unknown Object",
  server_busy: "Server busy. Retry at a later time.",
  internal_server_error: "Internal server error.",
};

/** imsx_CodeMinorFieldDType.imsx_codeMinorFieldName: "In most cases ... 'TargetEndSystem'". */
export const CODE_MINOR_FIELD_NAME = "TargetEndSystem";

export interface TImsxStatusInfo {
  imsx_codeMajor: TCodeMajor;
  imsx_severity: TSeverity;
  imsx_description?: string;
  imsx_CodeMinor?: {
    imsx_codeMinorField: { imsx_codeMinorFieldName: string; imsx_codeMinorFieldValue: TCodeMinor }[];
  };
}

/**
 * Every error response is "accompanied by the 'codeMajor/severity' values of 'failure/error'"
 * (each 4xx/5xx response of the 1.2 OpenAPI), so only the code minor varies.
 */
export class OneRosterError extends Error {
  readonly httpStatus: number;
  readonly codeMajor: TCodeMajor = "failure";
  readonly severity: TSeverity = "error";
  readonly codeMinor: TErrorCodeMinor;
  readonly description: string;

  constructor(codeMinor: TErrorCodeMinor, description: string = DEFAULT_DESCRIPTION[codeMinor]) {
    super(`${codeMinor}: ${description}`);
    this.name = "OneRosterError";
    this.codeMinor = codeMinor;
    this.description = description;
    this.httpStatus = CODE_MINOR_STATUS[codeMinor];
  }
}

/**
 * The JSON body of an error response. 1.2 puts imsx_StatusInfoDType at the top level of the
 * body (each error response's schema is `$ref: imsx_StatusInfoDType`, no wrapper), with one
 * status per response, not 1.1's `statusInfoSet` array. Its description adds: "this object will
 * only be returned to provide information about a failed request i.e. it will NOT be in the
 * payload for a successful request", and the collection payloads (UserSetDType ...) have
 * `additionalProperties: false`: a 200 carries no warnings, so there is no warning form here.
 */
export function statusPayload(error: OneRosterError): TImsxStatusInfo {
  return {
    imsx_codeMajor: error.codeMajor,
    imsx_severity: error.severity,
    imsx_description: error.description,
    imsx_CodeMinor: {
      imsx_codeMinorField: [{ imsx_codeMinorFieldName: CODE_MINOR_FIELD_NAME, imsx_codeMinorFieldValue: error.codeMinor }],
    },
  };
}

/**
 * Anything a OneRoster route catches, as a OneRosterError: ours pass through, anything else is
 * an internal_server_error whose description never repeats the original message (it may hold
 * SQL or a stack: DESIGN.md "never leaks a stack or a 5xx message").
 */
export function asOneRosterError(error: unknown): OneRosterError {
  return error instanceof OneRosterError ? error : new OneRosterError("internal_server_error");
}

/**
 * Client input quoted inside a description, bounded so a 2 KiB filter is not echoed whole, and
 * with control characters replaced so the description stays one readable line.
 */
export function quoteInput(text: string, max = 60): string {
  const visible = text.replace(/[\u0000-\u001f\u007f]/g, "?");
  return `'${visible.length > max ? `${visible.slice(0, max)}…` : visible}'`;
}
