/**
 * A response body already written as JSON, in UTF-8. A hot path that splices JSON the database
 * wrote (a Data API page) returns this instead of an object, and the route sends the bytes as
 * they are.
 */
export class JsonText<T = unknown> {
  constructor(readonly bytes: Buffer<ArrayBuffer>) {}

  get text(): string {
    return this.bytes.toString("utf8");
  }

  /** The body as an object, for in-process callers and tests. */
  parse(): T {
    return JSON.parse(this.text) as T;
  }
}
