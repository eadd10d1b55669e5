import { defaultSettings } from "@kiln/domain";
import { checkRemote, DISALLOWED_HOST_MESSAGE, type HostResolver } from "@kiln/git";
import { describe, expect, it } from "vitest";
import { remotePolicy } from "./remote-policy.js";

const resolve: HostResolver = async (host) =>
  ({
    "git.example.com": ["93.184.216.34"],
    "mapped.example.com": ["::ffff:127.0.0.1"],
    "metadata.example.com": ["::ffff:169.254.169.254"],
    "private.example.com": ["10.0.0.7"],
  })[host] ?? [];

const settings = (allowLocalNetworks: boolean) =>
  defaultSettings("/nonexistent", { migrations: { allowLocalNetworks } });

describe("migrations and mirrors reach what the shared classifier allows", () => {
  it.each([
    "http://127.0.0.1:3000/o/r.git",
    "http://2130706433:3000/o/r.git",
    "http://0x7f000001:3000/o/r.git",
    "http://0177.0.0.1:3000/o/r.git",
    "http://127.1:3000/o/r.git",
    "http://[::1]:3000/o/r.git",
    "http://[::ffff:127.0.0.1]:3000/o/r.git",
    "http://[::ffff:7f00:1]:3000/o/r.git",
    "http://[::127.0.0.1]:3000/o/r.git",
    "http://[64:ff9b::7f00:1]:3000/o/r.git",
    "http://localhost:3000/o/r.git",
    "http://repo.localhost/o/r.git",
    "http://mapped.example.com/o/r.git",
    "http://private.example.com/o/r.git",
    "http://10.0.0.1/o/r.git",
    "http://[::ffff:10.0.0.1]/o/r.git",
    "http://[::ffff:192.168.1.1]/o/r.git",
    "http://100.64.0.1/o/r.git",
    "http://[fd00::1]/o/r.git",
  ])("refuses %s by default and accepts it with ALLOW_LOCALNETWORKS", async (raw) => {
    await expect(checkRemote(raw, { ...remotePolicy(settings(false)), resolve })).rejects.toThrow(
      DISALLOWED_HOST_MESSAGE,
    );
    await expect(checkRemote(raw, { ...remotePolicy(settings(true)), resolve })).resolves.toBeDefined();
  });

  it.each([
    "http://169.254.169.254/latest/meta-data",
    "http://[::ffff:169.254.169.254]/latest/meta-data",
    "http://[::ffff:a9fe:a9fe]/latest/meta-data",
    "http://metadata.example.com/latest/meta-data",
    "http://0.0.0.0:3000/o/r.git",
    "http://[::]:3000/o/r.git",
    "http://[::ffff:0.0.0.0]:3000/o/r.git",
    "http://[fe80::1]/o/r.git",
  ])("refuses %s even with ALLOW_LOCALNETWORKS", async (raw) => {
    await expect(checkRemote(raw, { ...remotePolicy(settings(true)), resolve })).rejects.toThrow(
      DISALLOWED_HOST_MESSAGE,
    );
  });

  it("accepts a public host, pinned to its address", async () => {
    const ok = await checkRemote("https://git.example.com/o/r.git", {
      ...remotePolicy(settings(false)),
      resolve,
    });
    expect(ok.addresses).toEqual(["93.184.216.34"]);
  });
});
