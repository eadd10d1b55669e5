import type { CommandContext } from "./command-context.js";

/**
 * `kiln admin cron list`: every cron task with its schedule, runs and last outcome. Through a
 * running server it shows that server's schedule; otherwise the tasks as configured.
 */
export async function cronList({ services, io }: CommandContext): Promise<number> {
  const rows = [["Name", "Schedule", "Next", "Previous", "Runs", "Last"]];
  for (const t of services.cron.list()) {
    rows.push([
      t.name,
      t.schedule,
      t.next?.toISOString() ?? "-",
      t.prev?.toISOString() ?? "-",
      String(t.execTimes),
      t.running ? "running" : t.lastStatus ? `${t.lastStatus}: ${t.lastMessage}` : "-",
    ]);
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
}

/**
 * `kiln admin cron run <task>`: runs a task now and waits for it (joining a run already going on
 * in the server). Exit 0 when it finished, 1 when it failed, 2 for an unknown task.
 */
export async function cronRun({ services, io }: CommandContext, args: { task: string }): Promise<number> {
  const running = services.cron.run(args.task);
  if (!running) {
    const names = services.cron.list().map((t) => t.name);
    io.err(`unknown cron task: ${args.task} (tasks: ${names.join(", ") || "none"})`);
    return 2;
  }
  const result = await running;
  if (result.status === "error") {
    io.err(`${result.name} failed after ${result.ms} ms: ${result.message}`);
    return 1;
  }
  io.out(`${result.name} finished in ${result.ms} ms: ${result.message}`);
  return 0;
}
