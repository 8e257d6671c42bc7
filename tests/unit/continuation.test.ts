import { afterEach, describe, expect, it } from "vitest";
import { CONTINUATION_TTL_MS, signContinuation, spendContinuation } from "@/lib/server/chat/continuation";
import { DEVICE_TIME_TOOL_NAME, deviceTimeResult, offeredDeviceTools } from "@/lib/shared/llm/device-tools";
import { AppError } from "@/lib/shared/errors";
import { setEnv } from "../helpers/env";

/** docs/issues.md #50, the device-tool round trip: the signed continuation token and the built-in test tool. */
const calls = [{ id: "call_1", name: DEVICE_TIME_TOOL_NAME, arguments: "{}" }];
const caller = "u:11111111-1111-4111-8111-111111111111";

async function refusal(run: () => unknown): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("not refused");
}

afterEach(() => setEnv({ CHAT_MAX_TOOL_STEPS: undefined }));

describe("continuation tokens", () => {
  it("a token continues its own turn once, at the next step", async () => {
    const { token, claims } = signContinuation({ caller, turn: null, step: 1, calls });
    expect(await spendContinuation(token, { caller, calls })).toEqual(claims);
    expect(await refusal(() => spendContinuation(token, { caller, calls }))).toMatchObject({ status: 409, code: "conflict:continuation_used" });
  });

  it("a replay seconds later is refused too", async () => {
    const now = Date.now();
    const { token } = signContinuation({ caller, turn: null, step: 1, calls, now });
    await spendContinuation(token, { caller, calls, now });
    for (const later of [1_500, 61_000, CONTINUATION_TTL_MS - 1_000]) {
      expect(await refusal(() => spendContinuation(token, { caller, calls, now: now + later }))).toMatchObject({ status: 409 });
    }
  });

  it("forged, altered, another caller's or for other calls: 403, and it is not used up", async () => {
    const { token } = signContinuation({ caller, turn: null, step: 1, calls });
    const [head, body, sig] = token.split(".");
    const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), step: 0 })).toString("base64url");
    for (const bad of [`${head}.${altered}.${sig}`, `${head}.${body}.${"A".repeat(sig!.length)}`, "c1.x", "not a token"]) {
      expect(await refusal(() => spendContinuation(bad, { caller, calls }))).toMatchObject({ status: 403 });
    }
    expect(await refusal(() => spendContinuation(token, { caller: "u:someone-else", calls }))).toMatchObject({ status: 403 });
    expect(await refusal(() => spendContinuation(token, { caller, calls: [{ ...calls[0]!, arguments: '{"x":1}' }] }))).toMatchObject({ status: 403 });
    expect((await spendContinuation(token, { caller, calls })).step).toBe(1);
  });

  it("past its TTL or over CHAT_MAX_TOOL_STEPS it is refused with 400", async () => {
    const old = signContinuation({ caller, turn: null, step: 1, calls, now: Date.now() - CONTINUATION_TTL_MS - 1 });
    expect(await refusal(() => spendContinuation(old.token, { caller, calls }))).toMatchObject({ status: 400, code: "bad_request:continuation_expired" });
    setEnv({ CHAT_MAX_TOOL_STEPS: "3" });
    const last = signContinuation({ caller, turn: null, step: 3, calls });
    expect(await refusal(() => spendContinuation(last.token, { caller, calls }))).toMatchObject({ status: 400, code: "bad_request:tool_steps" });
    const next = signContinuation({ caller, turn: last.claims.turn, step: 2, calls });
    expect((await spendContinuation(next.token, { caller, calls })).turn).toBe(last.claims.turn);
  });
});

describe("the built-in device tool", () => {
  it("is offered by name only, unknown names dropped, and answers the device's local time and zone", () => {
    expect(offeredDeviceTools({ tools: ["nope", DEVICE_TIME_TOOL_NAME, DEVICE_TIME_TOOL_NAME] }).map((t) => t.function.name)).toEqual([DEVICE_TIME_TOOL_NAME]);
    expect(offeredDeviceTools({})).toEqual([]);
    expect(JSON.parse(deviceTimeResult(new Date(2026, 11, 2, 7, 5, 0), "Europe/Paris"))).toEqual({ local: "2026-12-02T07:05:00", zone: "Europe/Paris" });
  });
});
