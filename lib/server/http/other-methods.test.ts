import { describe, expect, it } from "vitest";
import { allowHeader, otherMethods } from "./other-methods";

describe("otherMethods", () => {
  it("Allow lists the implemented methods, HEAD with GET, and OPTIONS, sorted", () => {
    expect(allowHeader(["GET"])).toBe("GET, HEAD, OPTIONS");
    expect(allowHeader(["POST"])).toBe("OPTIONS, POST");
    expect(allowHeader(["GET", "POST"])).toBe("GET, HEAD, OPTIONS, POST");
  });

  it("answers 405 with Allow and a JSON message; OPTIONS is a 204 with the same Allow", async () => {
    const { PUT, HEAD, OPTIONS } = otherMethods(["POST"]);
    const put = PUT();
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("OPTIONS, POST");
    expect(await put.json()).toEqual({ message: "Método não permitido. Este endereço aceita OPTIONS, POST." });
    expect(HEAD().status).toBe(405);
    expect(HEAD().body).toBeNull();
    expect(OPTIONS().status).toBe(204);
    expect(OPTIONS().headers.get("allow")).toBe("OPTIONS, POST");
  });
});
