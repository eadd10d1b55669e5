import { isKilnError } from "@kiln/domain";
import * as v from "valibot";
import type { CommandContext } from "./command-context.js";
import { cronList, cronRun } from "./cron.js";
import { doctorQuota } from "./doctor-quota.js";

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument schema
type AnyArgs = v.GenericSchema<any, any>;

interface InstanceCommand<A extends AnyArgs> {
  readonly args: A;
  readonly run: (ctx: CommandContext, args: v.InferOutput<A>) => Promise<number>;
}

function command<A extends AnyArgs>(def: InstanceCommand<A>): InstanceCommand<A> {
  return def;
}

const optionalString = v.optional(v.string());

/**
 * The commands that act on an instance's data. The CLI runs them against the database when no
 * server holds the work path, and otherwise sends them to the running server's internal API,
 * which runs the very same functions. Each returns its exit code.
 */
export const instanceCommands = {
  "admin.user.create": command({
    args: v.object({
      username: v.string(),
      email: v.string(),
      password: optionalString,
      admin: v.optional(v.boolean()),
      mustChangePassword: v.optional(v.boolean()),
    }),
    async run({ services, io }, args) {
      // Forgejo: the first user is taken as the admin being set up and is not forced to change
      // the password; anyone else is, unless the flag says otherwise.
      const first = (await services.users.listForAdmin({}, { page: 1, limit: 1 })).total === 0;
      const user = await services.users.create({
        username: args.username,
        email: args.email,
        password: args.password,
        isAdmin: args.admin ?? false,
        mustChangePassword: args.mustChangePassword ?? !first,
      });
      io.out(`New user '${user.name}' has been successfully created!`);
      return 0;
    },
  }),

  "admin.user.generate-access-token": command({
    args: v.object({
      username: v.string(),
      tokenName: v.string(),
      scopes: v.string(),
      raw: v.optional(v.boolean()),
    }),
    async run({ services, io }, args) {
      const user = await services.users.getByName(args.username);
      const scopes = args.scopes.split(",").map((s) => s.trim());
      const { secret } = await services.tokens.create(user, args.tokenName, scopes);
      io.out(args.raw ? secret : `Access token was successfully created: ${secret}`);
      return 0;
    },
  }),

  "admin.user.list": command({
    args: v.object({ admin: v.optional(v.boolean()) }),
    async run({ services, io }, args) {
      const rows: string[][] = [["ID", "Username", "Email", "IsActive", "IsAdmin", "2FA"]];
      for (let page = 1; ; page++) {
        const batch = await services.users.listForAdmin({ sort: "oldest" }, { page, limit: 100 });
        for (const u of batch.items) {
          if (args.admin && !u.isAdmin) continue;
          const twoFactor = await services.auth.hasTwoFactor(u);
          rows.push([
            String(u.id),
            u.name,
            u.email,
            String(u.isActive),
            String(u.isAdmin),
            String(twoFactor),
          ]);
        }
        if (page * 100 >= batch.total) break;
      }
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
      for (const r of rows)
        io.out(
          r
            .map((cell, i) => cell.padEnd(widths[i]!))
            .join("  ")
            .trimEnd(),
        );
      return 0;
    },
  }),

  "admin.user.delete": command({
    args: v.object({
      username: optionalString,
      email: optionalString,
      id: v.optional(v.number()),
      purge: v.optional(v.boolean()),
    }),
    async run({ services, io }, args) {
      const user = args.username
        ? await services.users.getByName(args.username)
        : args.id !== undefined
          ? await services.users.findById(args.id)
          : args.email
            ? await services.users.findByEmail(args.email)
            : undefined;
      if (!user) {
        io.err("no such user");
        return 1;
      }
      await services.users.delete(user, null, { purge: args.purge ?? false });
      io.out(`User '${user.name}' has been deleted.`);
      return 0;
    },
  }),

  "admin.cron.list": command({ args: v.object({}), run: cronList }),

  "admin.cron.run": command({ args: v.object({ task: v.string() }), run: cronRun }),

  "doctor.quota": command({
    args: v.object({ fix: v.optional(v.boolean()) }),
    run: doctorQuota,
  }),

  migrate: command({
    args: v.object({}),
    async run({ io, migrated }) {
      for (const name of migrated) io.out(`Applied migration ${name}`);
      io.out("The database is up to date.");
      return 0;
    },
  }),
} as const;

export type InstanceCommandName = keyof typeof instanceCommands;

/** Runs a named command with untrusted arguments; expected failures become a message and exit 1. */
export async function runInstanceCommand(
  ctx: CommandContext,
  name: string,
  rawArgs: unknown,
): Promise<number> {
  const def = (instanceCommands as unknown as Record<string, InstanceCommand<AnyArgs>>)[name];
  if (!def) {
    ctx.io.err(`unknown command: ${name}`);
    return 2;
  }
  const args = v.safeParse(def.args, rawArgs);
  if (!args.success) {
    ctx.io.err(`invalid arguments for ${name}: ${args.issues[0]?.message}`);
    return 2;
  }
  try {
    return await def.run(ctx, args.output);
  } catch (err) {
    if (isKilnError(err)) {
      ctx.io.err(err.message);
      return 1;
    }
    throw err;
  }
}
