import {
  InvalidArgumentError,
  NotFoundError,
  type Paged,
  type PageRequest,
  type Repository,
  type User,
} from "@kiln/domain";
import { type HookScope, type HookTaskRow, hookSelection, type WebhookRow, webhooks } from "@kiln/storage";
import { openSecret, sealSecret } from "../auth/secret-box.js";
import type { ServiceContext } from "../context.js";
import { compileBranchGlob } from "./branch-glob.js";
import { hookEventNames, parseHookEvents } from "./hook-events.js";
import { HOOK_TYPES } from "./render.js";

/** What creating a hook takes (Forgejo's CreateHookOption). */
export interface CreateHookInput {
  readonly type: string;
  readonly config: Readonly<Record<string, string>>;
  readonly events?: readonly string[] | undefined;
  readonly branchFilter?: string | undefined;
  readonly active?: boolean | undefined;
  readonly authorizationHeader?: string | undefined;
  readonly isSystemWebhook?: boolean | undefined;
}

/** What editing a hook takes (Forgejo's EditHookOption). */
export interface EditHookInput {
  readonly config?: Readonly<Record<string, string>> | undefined;
  readonly events?: readonly string[] | undefined;
  readonly branchFilter?: string | undefined;
  readonly active?: boolean | undefined;
  readonly authorizationHeader?: string | undefined;
}

/** A hook as the API shows it: its row, its event names and its authorization header in clear. */
export interface HookView {
  readonly hook: WebhookRow;
  readonly events: readonly string[];
  readonly authorizationHeader: string;
}

const CONTENT_TYPES = ["json", "form"];
const METHODS = ["POST", "GET", "PUT"];
/** Forgejo's IsValidSlackChannel: `#name` or `name`, without spaces. */
const SLACK_CHANNEL = /^#?[^\s#]{1,80}$/;

/**
 * Webhooks of repositories, owners and the site (Forgejo's routers/api/v1/utils/hook.go and
 * models/webhook). Callers pass a scope the access module already allowed; a hook outside the
 * scope is not found.
 */
export class HookService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(scope: HookScope, page: PageRequest): Promise<Paged<HookView>> {
    const found = await webhooks.listWebhooks(this.ctx.db, scope, page);
    return { items: found.items.map((hook) => this.view(hook)), total: found.total };
  }

  async get(scope: HookScope, id: number): Promise<HookView> {
    return this.view(await this.row(scope, id));
  }

  /** The row of a hook of the scope; 404 when it belongs elsewhere or does not exist. */
  async row(scope: HookScope, id: number): Promise<WebhookRow> {
    const hook = await webhooks.findWebhook(this.ctx.db, scope, id);
    if (!hook) throw new NotFoundError("webhook does not exist");
    return hook;
  }

  /**
   * Creates a hook with Forgejo's checks (422 `Invalid hook type: x`, `Missing config option: url`,
   * `Invalid content type`, …). Under `admin`, `is_system_webhook` decides system or default hook.
   */
  async create(scope: HookScope, input: CreateHookInput): Promise<HookView> {
    if (!(HOOK_TYPES as readonly string[]).includes(input.type)) {
      throw new InvalidArgumentError(`Invalid hook type: ${input.type}`);
    }
    for (const name of ["url", "content_type"]) {
      if (input.config[name] === undefined) throw new InvalidArgumentError(`Missing config option: ${name}`);
    }
    const contentType = checkContentType(input.config.content_type as string);
    const url = checkUrl(input.config.url as string);
    const method = checkMethod(input.config.http_method, input.type === "matrix" ? "PUT" : "POST");
    const events = parseHookEvents(input.events);
    const branchFilter = checkBranchFilter(input.branchFilter ?? "");
    const meta = hookMeta(input.type, input.config, undefined);
    const hook = await webhooks.insertWebhook(this.ctx.db, {
      repoId: "repoId" in scope ? scope.repoId : null,
      ownerId: "ownerId" in scope ? scope.ownerId : null,
      isSystemWebhook: "admin" in scope ? (input.isSystemWebhook ?? false) : false,
      type: input.type,
      url,
      httpMethod: method,
      contentType,
      secret: this.seal(input.config.secret ?? ""),
      events: JSON.stringify(events),
      branchFilter,
      authorizationHeader: this.seal(input.authorizationHeader ?? ""),
      meta,
      isActive: input.active ?? false,
    });
    return this.view(hook);
  }

  /**
   * Edits a hook as Forgejo's editHook: config keys given replace theirs; `events`,
   * `branch_filter` and `authorization_header` are always replaced (absent events mean `push`,
   * absent filter and header mean none), `active` only when given.
   */
  async edit(scope: HookScope, id: number, input: EditHookInput): Promise<HookView> {
    const hook = await this.row(scope, id);
    const config = input.config ?? {};
    const events = parseHookEvents(input.events);
    const branchFilter = checkBranchFilter(input.branchFilter ?? "");
    await webhooks.updateWebhook(this.ctx.db, hook.id, {
      ...(config.url !== undefined ? { url: checkUrl(config.url) } : {}),
      ...(config.content_type !== undefined ? { contentType: checkContentType(config.content_type) } : {}),
      ...(config.http_method !== undefined ? { httpMethod: checkMethod(config.http_method, "POST") } : {}),
      ...(config.secret !== undefined ? { secret: this.seal(config.secret) } : {}),
      ...(hook.type === "slack" && config.channel !== undefined
        ? { meta: hookMeta(hook.type, config, hook.meta) }
        : {}),
      events: JSON.stringify(events),
      branchFilter,
      authorizationHeader: this.seal(input.authorizationHeader ?? ""),
      ...(input.active !== undefined ? { isActive: input.active } : {}),
      updatedAt: new Date(),
    });
    return this.get(scope, id);
  }

  async delete(scope: HookScope, id: number): Promise<void> {
    if (!(await webhooks.deleteWebhook(this.ctx.db, scope, id)))
      throw new NotFoundError("webhook does not exist");
  }

  /** A page of a hook's deliveries, newest first (Kiln's extension: Forgejo shows them only in its UI). */
  async deliveries(scope: HookScope, id: number, page: PageRequest): Promise<Paged<HookTaskRow>> {
    const hook = await this.row(scope, id);
    return webhooks.listHookTasks(this.ctx.db, hook.id, page);
  }

  /** The clear secret of a hook (for signing). */
  secretOf(hook: WebhookRow): string {
    return this.open(hook.secret);
  }

  /** The clear authorization header of a hook. */
  authorizationOf(hook: WebhookRow): string {
    return this.open(hook.authorizationHeader);
  }

  view(hook: WebhookRow): HookView {
    return {
      hook,
      events: hookEventNames(hookSelection(hook.events)),
      authorizationHeader: this.authorizationOf(hook),
    };
  }

  private seal(value: string): string {
    return value === "" ? "" : sealSecret(this.ctx.settings.security.secretKey, value);
  }

  private open(value: string): string {
    if (value === "") return "";
    try {
      return openSecret(this.ctx.settings.security.secretKey, value);
    } catch {
      // Sealed under another SECRET_KEY: unusable, as Forgejo's decryption failure.
      return "";
    }
  }
}

/** Scope helpers for callers: a repository's hooks, an owner's, or the site's. */
export const hookScope = {
  repo: (repo: Repository): HookScope => ({ repoId: repo.id }),
  owner: (owner: User): HookScope => ({ ownerId: owner.id }),
  admin: (which: "system" | "default" | "all" = "all"): HookScope => ({ admin: which }),
};

function checkContentType(value: string): string {
  const type = value.toLowerCase();
  if (!CONTENT_TYPES.includes(type)) throw new InvalidArgumentError("Invalid content type");
  return type;
}

function checkUrl(value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new InvalidArgumentError("Invalid url");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new InvalidArgumentError("Invalid url");
  return value;
}

function checkMethod(value: string | undefined, fallback: string): string {
  if (value === undefined || value === "") return fallback;
  const method = value.toUpperCase();
  if (!METHODS.includes(method)) throw new InvalidArgumentError("Invalid http method");
  return method;
}

function checkBranchFilter(filter: string): string {
  if (filter !== "" && filter !== "*") compileBranchGlob(filter);
  return filter;
}

/** Forgejo's per-type meta: Slack's channel (required), username, icon and colour. */
function hookMeta(
  type: string,
  config: Readonly<Record<string, string>>,
  previous: string | undefined,
): string {
  if (type === "slack") {
    const channel = config.channel?.trim();
    if (channel === undefined) throw new InvalidArgumentError("Missing config option: channel");
    if (!SLACK_CHANNEL.test(channel)) throw new InvalidArgumentError("Invalid slack channel name");
    return JSON.stringify({
      channel,
      username: config.username ?? "",
      icon_url: config.icon_url ?? "",
      color: config.color ?? "",
    });
  }
  if (type === "discord" || type === "matrix") {
    const { url: _u, content_type: _c, secret: _s, http_method: _m, ...rest } = config;
    return Object.keys(rest).length > 0 ? JSON.stringify(rest) : (previous ?? "");
  }
  return previous ?? "";
}
