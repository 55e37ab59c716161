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
