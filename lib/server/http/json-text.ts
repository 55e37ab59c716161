/**
 * A response body already written as JSON text. A hot path that splices JSON the database wrote
 * (a Data API page) returns this instead of an object, and the route sends the text as it is.
 */
export class JsonText<T = unknown> {
  constructor(readonly text: string) {}

  /** The body as an object, for in-process callers and tests. */
  parse(): T {
    return JSON.parse(this.text) as T;
  }
}
