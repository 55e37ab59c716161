import { describe, expect, it } from "vitest";
import { LOGO_MAX_BYTES } from "@/lib/validations/developer";
import { jpegBytes, pngBytes, SVG_LOGO } from "@/test/fixtures/developer";
import { validateLogo } from "./validate-logo";

describe("validateLogo", () => {
  it("accepts a PNG by its bytes and keeps them as they are", () => {
    const png = pngBytes(64, 64);
    expect(validateLogo(png)).toEqual({ ok: true, contentType: "image/png", bytes: png });
  });

  it("accepts a JPEG by its bytes", () => {
    expect(validateLogo(jpegBytes(100, 80))).toMatchObject({ ok: true, contentType: "image/jpeg" });
  });

  it("accepts an SVG and stores the sanitised serialisation, not the upload", () => {
    const result = validateLogo(Buffer.from(`<?xml version="1.0"?>\n<!-- editor -->${SVG_LOGO}`));
    expect(result).toMatchObject({ ok: true, contentType: "image/svg+xml" });
    if (result.ok) expect(result.bytes.toString()).not.toContain("editor");
  });

  it("refuses an SVG with script, with the sanitiser's message", () => {
    expect(validateLogo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toEqual({
      ok: false,
      message: expect.stringContaining("<script>"),
    });
  });

  it("refuses an empty file and one over the size limit", () => {
    expect(validateLogo(Buffer.alloc(0))).toMatchObject({ ok: false, message: expect.stringMatching(/Selecione/) });
    const big = Buffer.concat([pngBytes(32, 32), Buffer.alloc(LOGO_MAX_BYTES)]);
    expect(validateLogo(big)).toMatchObject({ ok: false, message: expect.stringMatching(/limite é 256 KiB/) });
  });

  it.each([
    ["GIF", Buffer.from("GIF89a\x01\x00\x01\x00", "latin1")],
    ["WebP", Buffer.from("RIFF\x00\x00\x00\x00WEBPVP8 ", "latin1")],
    ["text", Buffer.from("hello, I am a PNG, trust me")],
    ["HTML", Buffer.from("<html><script>alert(1)</script></html>")],
    ["PDF", Buffer.from("%PDF-1.4\n")],
  ])("refuses %s whatever the browser called it", (_, bytes) => {
    expect(validateLogo(bytes)).toMatchObject({ ok: false, message: expect.stringMatching(/PNG, JPEG ou SVG/) });
  });

  it("refuses a truncated PNG and a PNG that is too small or too large", () => {
    const png = pngBytes(32, 32);
    expect(validateLogo(png.subarray(0, png.length - 12))).toMatchObject({ ok: false, message: expect.stringMatching(/incompleto/) });
    expect(validateLogo(pngBytes(8, 8))).toMatchObject({ ok: false, message: expect.stringMatching(/ao menos 16×16/) });
    const header = pngBytes(32, 32);
    header.writeUInt32BE(10_000, 16);
    expect(validateLogo(header)).toMatchObject({ ok: false, message: expect.stringMatching(/máximo é 4096×4096/) });
  });

  it("refuses a JPEG without a frame header", () => {
    expect(validateLogo(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toMatchObject({ ok: false, message: expect.stringMatching(/JPEG/) });
  });
});
