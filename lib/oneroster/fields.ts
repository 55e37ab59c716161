// The `fields` query parameter: which top-level fields of each record the response carries.

import { OneRosterError, quoteInput } from "./status";

/** Past this, the parameter cannot be a list of real field names. */
const MAX_FIELDS_LENGTH = 2048;

function selectionError(description: string): OneRosterError {
  return new OneRosterError("invalid_selection_field", description);
}

/**
 * The requested names. The 1.2 OpenAPI declares `fields` as an array with `style: form` (so
 * `fields=a&fields=b`), while the 1.1 binding and most clients send `fields=a,b`: both are
 * accepted, and may be mixed. Whitespace around names is ignored.
 */
export function requestedFields(fields: string | readonly string[]): string[] {
  const values = typeof fields === "string" ? [fields] : fields;
  if (values.reduce((sum, value) => sum + value.length, 0) > MAX_FIELDS_LENGTH) {
    throw selectionError(`The fields parameter is longer than ${MAX_FIELDS_LENGTH} characters.`);
  }
  const names = values.flatMap((value) => value.split(",")).map((name) => name.trim());
  // `allowEmptyValue: false` in the OpenAPI; an empty item is a client bug worth reporting.
  if (names.length === 0 || names.some((name) => name === "")) throw selectionError("The fields parameter has an empty field name.");
  return names;
}

/**
 * Rule: every requested field exists. OneRoster 1.1 returned all fields with a success/warning
 * status; 1.2's 400 response covers it instead: "Either an invalid selection field or invalid
 * filter selection was supplied ... 'invalid_selection_field' or 'invalid_filter_field'
 * respectively. This is accompanied by the 'codeMajor/severity' values of 'failure/error'."
 */
export function knownFields(names: readonly string[], allowed: readonly string[]): void {
  const unknown = names.filter((name) => !allowed.includes(name));
  if (unknown.length > 0) {
    throw selectionError(`Unknown field${unknown.length > 1 ? "s" : ""} ${unknown.slice(0, 5).map((name) => quoteInput(name)).join(", ")}.`);
  }
}

/**
 * The fields to return, in the order of `allowed` (the model's order, whatever order the client
 * listed them in), or null when the parameter is absent (every field). Only top-level names are
 * selectable: `allowed` lists them, so a dotted name is unknown.
 */
export function parseFields(fields: string | readonly string[] | null | undefined, allowed: readonly string[]): string[] | null {
  if (fields === null || fields === undefined) return null;
  if (typeof fields !== "string" && fields.length === 0) return null;
  const names = requestedFields(fields);
  knownFields(names, allowed);
  return allowed.filter((name) => names.includes(name));
}
