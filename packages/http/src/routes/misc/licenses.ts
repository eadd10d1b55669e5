import { api } from "@kiln/domain";
import { licenseTemplates } from "@kiln/service";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";

/** Forgejo's routers/api/v1/misc/licenses.go: the license templates a new repository may start with. */

/** What GitHub's API adds to every license, and Forgejo with it. */
const IMPLEMENTATION =
  "Create a text file (typically named LICENSE or LICENSE.md) in the root of your source code and copy the text of the license into the file";

const licenseUrl = (rootUrl: string, key: string) => `${rootUrl}api/v1/licenses/${encodeURIComponent(key)}`;

export const listLicenseTemplates = route({
  method: "get",
  path: "/licenses",
  operationId: "listLicenseTemplates",
  tags: ["miscellaneous"],
  summary: "Returns a list of all license templates",
  access: "public",
  responses: { 200: { description: "LicenseTemplateList", schema: v.array(api.LicensesTemplateListEntry) } },
  async handler(c) {
    const rootUrl = c.get("settings").server.rootUrl;
    const list = await licenseTemplates.list();
    // Forgejo names each license by its identifier (the template's file name).
    return c.json(list.map(({ key }) => ({ key, name: key, url: licenseUrl(rootUrl, key) })));
  },
});

export const getLicenseTemplateInfo = route({
  method: "get",
  path: "/licenses/{name}",
  operationId: "getLicenseTemplateInfo",
  tags: ["miscellaneous"],
  summary: "Returns information about a license template",
  access: "public",
  params: v.object({ name: qs.string("name of the license") }),
  responses: {
    200: { description: "LicenseTemplateInfo", schema: api.LicenseTemplateInfo },
    ...notFound,
  },
  async handler(c, { params }) {
    const license = await licenseTemplates.get(params.name);
    return c.json({
      key: license.key,
      name: license.key,
      url: licenseUrl(c.get("settings").server.rootUrl, license.key),
      implementation: IMPLEMENTATION,
      body: license.body,
    });
  },
});

export const licenseRoutes = [listLicenseTemplates, getLicenseTemplateInfo];
