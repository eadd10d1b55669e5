import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HookReceiver, startReceiver } from "../../../test/hook-receiver.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

/**
 * The default `[webhook] ALLOWED_HOST_LIST` (`external`) against hook URLs that name the local
 * machine in another spelling: each must be refused before any byte leaves, and the delivery
 * history must hold the refusal, never the receiver's answer.
 */
describe("webhook allow list against other spellings of local addresses", () => {
  let t: TestApp;
  let owner: TestUser;
  let receiver: HookReceiver;
  let port: number;

  beforeAll(async () => {
    t = await openTestApp("pglite");
    receiver = await startReceiver();
    port = Number(new URL(receiver.url).port);
    owner = await t.user();
    await t.call("POST", "/user/repos", { token: owner.token, body: { name: "r", auto_init: true } });
  });

  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const deliverTo = async (url: string) => {
    const hooks = `/repos/${owner.name}/r/hooks`;
    const hook = await t.call("POST", hooks, {
      token: owner.token,
      body: { type: "forgejo", config: { url, content_type: "json" }, active: true },
    });
    expect(hook.status, url).toBe(201);
    expect((await t.call("POST", `${hooks}/${hook.json.id}/tests`, { token: owner.token })).status).toBe(204);
    await t.services.webhooks.worker.runOnce();
    const history = await t.call("GET", `${hooks}/${hook.json.id}/deliveries`, { token: owner.token });
    expect(history.json, url).toHaveLength(1);
    return history.json[0];
  };

  it.each([
    ["[::ffff:127.0.0.1]", "::ffff:7f00:1"],
    ["[::ffff:7f00:1]", "::ffff:7f00:1"],
    ["[::ffff:0.0.0.0]", "::ffff:0:0"],
    ["[::ffff:0:7f00:1]", "::ffff:0:7f00:1"],
    ["[::127.0.0.1]", "::7f00:1"],
    ["[64:ff9b::127.0.0.1]", "64:ff9b::7f00:1"],
    ["[::]", "::"],
    ["0.0.0.0", "0.0.0.0"],
    ["2130706433", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
  ])("refuses http://%s:PORT/ (the loopback receiver gets nothing)", async (host, seen) => {
    const delivery = await deliverTo(`http://${host}:${port}/hook`);
    expect(delivery).toMatchObject({ delivered: true, succeeded: false, attempts: 1 });
    expect(delivery.response).toEqual({
      status: 0,
      headers: {},
      body: `webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting), deny '${seen}(${seen})'`,
    });
    expect(JSON.stringify(delivery)).not.toContain("thanks");
    expect(receiver.received).toHaveLength(0);
  });

  it.each([
    ["[::ffff:10.0.0.1]", "::ffff:a00:1"],
    ["[::ffff:169.254.169.254]", "::ffff:a9fe:a9fe"],
    ["[::ffff:192.168.1.1]", "::ffff:c0a8:101"],
    ["[::ffff:172.16.0.1]", "::ffff:ac10:1"],
  ])("refuses the private and link-local address written as %s without connecting", async (host, seen) => {
    const delivery = await deliverTo(`http://${host}:${port}/hook`);
    expect(delivery.response.status).toBe(0);
    expect(delivery.response.body).toContain(`deny '${seen}(${seen})'`);
  });
});
