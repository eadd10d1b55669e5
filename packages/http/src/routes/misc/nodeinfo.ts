import { api } from "@kiln/domain";
import type * as v from "valibot";
import type { AppContext, Mount } from "../../env.js";
import { route } from "../../route.js";
import { KILN_VERSION } from "./version.js";

/**
 * Forgejo's routers/api/v1/misc/nodeinfo.go and routers/web/nodeinfo.go. As in Forgejo, both
 * exist only with `[federation] ENABLED` (off by default). Kiln names itself (the software a
 * crawler finds is Kiln), lists no protocols (it speaks no ActivityPub yet) and has no open
 * registration (accounts are made by administrators).
 */

async function nodeInfo(c: AppContext): Promise<v.InferOutput<typeof api.NodeInfo>> {
  const settings = c.get("settings");
  let usage: v.InferOutput<typeof api.NodeInfo>["usage"] = { users: {} };
  if (settings.federation.shareUserStatistics) {
    const u = await c.get("services").instance.usage();
    usage = {
      users: { total: u.users, activeMonth: u.activeMonth, activeHalfyear: u.activeHalfyear },
      localPosts: u.issues,
      localComments: u.comments,
    };
  }
  return {
    version: "2.1",
    software: {
      name: "kiln",
      version: KILN_VERSION,
      repository: "",
      homepage: settings.server.rootUrl,
    },
    protocols: [],
    // Kiln publishes no RSS or Atom feeds (Forgejo lists "rss2.0").
    services: { inbound: [], outbound: [] },
    // Forgejo's ShowRegistrationButton: the sign-up page is open.
    openRegistrations: !settings.service.disableRegistration,
    usage,
    metadata: {},
  };
}

export const getNodeInfo = route({
  method: "get",
  path: "/nodeinfo",
  operationId: "getNodeInfo",
  tags: ["miscellaneous"],
  summary: "Returns the nodeinfo of the Forgejo application",
  access: "public",
  enabled: (s) => s.federation.enabled,
  responses: { 200: { description: "NodeInfo", schema: api.NodeInfo } },
  async handler(c) {
    return c.json(await nodeInfo(c));
  },
});

/** `/.well-known/nodeinfo`: where the document is (NodeInfo's discovery, Forgejo's NodeInfoLinks). */
export function mountNodeInfoDiscovery(mount: Mount): void {
  mount("get", "/.well-known/nodeinfo", (c) => {
    if (!c.get("settings").federation.enabled) return c.json({ message: "Not Found" }, 404);
    return c.json({
      links: [
        {
          href: `${c.get("settings").server.rootUrl}api/v1/nodeinfo`,
          rel: "http://nodeinfo.diaspora.software/ns/schema/2.1",
        },
      ],
    });
  });
}

export const nodeInfoRoutes = [getNodeInfo];
