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

/**
 * A response body written as JSON while it is produced (a whole Data API feed): the route sends
 * `stream()` as it comes, pulled as fast as the client reads.
 */
export class JsonStream {
  constructor(private readonly produce: () => AsyncGenerator<Buffer>) {}

  stream(): ReadableStream<Uint8Array> {
    const chunks = this.produce();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
  }

  /** The whole body as an object, for in-process callers and tests. */
  async parse<T = unknown>(): Promise<T> {
    const parts: Buffer[] = [];
    for await (const chunk of this.produce()) parts.push(chunk);
    return JSON.parse(Buffer.concat(parts).toString("utf8")) as T;
  }
}

/** Elements of a long array serialized together: a string well under V8's large-object size (128 KB) for pages of OneRoster objects. */
const ELEMENTS_PER_CHUNK = 100;

/**
 * `value` as a JsonStream, the same bytes as JSON.stringify(value). An object whose one member is
 * a long array (a page: `{"users": [...]}`) is written a hundred elements at a time, so a page of
 * 1,000 objects is never one string of most of a megabyte (a large object, which costs the
 * collector a full collection sooner) and each chunk can be compressed while the next is written.
 */
export function jsonInChunks(value: unknown): JsonStream {
  return new JsonStream(async function* () {
    const entries = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.entries(value) : [];
    const [only] = entries;
    if (entries.length !== 1 || !Array.isArray(only![1]) || only![1].length <= ELEMENTS_PER_CHUNK) {
      yield Buffer.from(JSON.stringify(value));
      return;
    }
    const [name, list] = only as [string, unknown[]];
    yield Buffer.from(`{${JSON.stringify(name)}:[`);
    for (let at = 0; at < list.length; at += ELEMENTS_PER_CHUNK) {
      const text = JSON.stringify(list.slice(at, at + ELEMENTS_PER_CHUNK));
      yield Buffer.from(`${at === 0 ? "" : ","}${text.slice(1, -1)}`);
    }
    yield Buffer.from("]}");
  });
}
