import {
  AlreadyExistsError,
  InvalidArgumentError,
  NotFoundError,
  type Paged,
  type PageRequest,
} from "@kiln/domain";
import { type ActionScope, type ActionSettingRow, actionSettings, isUniqueViolation } from "@kiln/storage";
import type { Actor } from "../access/actor.js";
import { sealSecret } from "../auth/secret-box.js";
import type { ServiceContext } from "../context.js";
import { MAX_ACTION_VALUE, normalizeValue, secretName, variableName } from "./action-names.js";
import { refusePublicOnly } from "./action-scope.js";

/** A secret as the API shows it: its name and when it was made, never its value. */
export interface SecretView {
  readonly name: string;
  readonly createdAt: Date;
}

/** A variable as the API shows it. */
export interface VariableView {
  readonly ownerId: number;
  readonly repoId: number;
  readonly name: string;
  readonly data: string;
}

function checkValue(value: string): string {
  const normalized = normalizeValue(value);
  if (normalized.length > MAX_ACTION_VALUE)
    throw new InvalidArgumentError(`value is longer than ${MAX_ACTION_VALUE} characters`);
  return normalized;
}

function toVariable(row: ActionSettingRow): VariableView {
  return { ownerId: row.ownerId ?? 0, repoId: row.repoId ?? 0, name: row.name, data: row.data };
}

/**
 * Actions secrets and variables of a repository or an owner (Forgejo's services/secrets and
 * services/actions/variables.go). Secret values are sealed with `[security] SECRET_KEY` and never
 * leave this service. The route resolved the repository or organization (and the caller's right
 * to manage it) through the access module; a `public-only` token is refused here.
 */
export class ActionSettingsService {
  constructor(private readonly ctx: ServiceContext) {}

  /** A page of a scope's secrets, by name. */
  async listSecrets(actor: Actor, scope: ActionScope, page: PageRequest): Promise<Paged<SecretView>> {
    refusePublicOnly(actor);
    const list = await actionSettings.listSettings(this.ctx.db, "actionSecret", scope, page);
    return { total: list.total, items: list.items.map((s) => ({ name: s.name, createdAt: s.createdAt })) };
  }

  /** Creates (true) or replaces the value of (false) a scope's secret; 400 for a bad name. */
  async putSecret(actor: Actor, scope: ActionScope, rawName: string, value: string): Promise<boolean> {
    refusePublicOnly(actor);
    const name = secretName(rawName);
    const sealed = sealSecret(this.ctx.settings.security.secretKey, checkValue(value));
    return this.ctx.db.transaction().execute(async (trx) => {
      const existing = await actionSettings.findSetting(trx, "actionSecret", scope, name);
      if (existing) {
        await actionSettings.updateSetting(trx, "actionSecret", existing.id, { data: sealed });
        return false;
      }
      if (await actionSettings.insertSetting(trx, "actionSecret", scope, name, sealed)) return true;
      // A concurrent request created it first: this one replaces its value, as an update.
      const raced = await actionSettings.findSetting(trx, "actionSecret", scope, name);
      if (raced) await actionSettings.updateSetting(trx, "actionSecret", raced.id, { data: sealed });
      return false;
    });
  }

  /** Deletes a scope's secret: 400 for a bad name, 404 when there is none of that name. */
  async deleteSecret(actor: Actor, scope: ActionScope, rawName: string): Promise<void> {
    refusePublicOnly(actor);
    const name = secretName(rawName);
    if (!(await actionSettings.deleteSetting(this.ctx.db, "actionSecret", scope, name)))
      throw new NotFoundError(`secret was not found [name: ${name}]`);
  }

  /** A page of a scope's variables, by name. */
  async listVariables(actor: Actor, scope: ActionScope, page: PageRequest): Promise<Paged<VariableView>> {
    refusePublicOnly(actor);
    const list = await actionSettings.listSettings(this.ctx.db, "actionVariable", scope, page);
    return { total: list.total, items: list.items.map(toVariable) };
  }

  /** One variable of a scope by name (any case); 404 when absent. */
  async getVariable(actor: Actor, scope: ActionScope, name: string): Promise<VariableView> {
    refusePublicOnly(actor);
    return toVariable(await this.variable(scope, name));
  }

  /** Creates a variable: 400 for a bad name, 409 when the scope has one of that name. */
  async createVariable(actor: Actor, scope: ActionScope, rawName: string, value: string): Promise<void> {
    refusePublicOnly(actor);
    if (await actionSettings.findSetting(this.ctx.db, "actionVariable", scope, rawName.toUpperCase()))
      throw new AlreadyExistsError(`variable name ${rawName} already exists`);
    const name = variableName(rawName);
    const row = await actionSettings.insertSetting(
      this.ctx.db,
      "actionVariable",
      scope,
      name,
      checkValue(value),
    );
    if (!row) throw new AlreadyExistsError(`variable name ${rawName} already exists`);
  }

  /**
   * Changes a variable's value, and its name when `newName` is given: 404 when it does not exist,
   * 400 for a bad new name, 409 when the new name is another variable's.
   */
  async updateVariable(
    actor: Actor,
    scope: ActionScope,
    currentName: string,
    change: { readonly name?: string | undefined; readonly value: string },
  ): Promise<void> {
    refusePublicOnly(actor);
    const existing = await this.variable(scope, currentName);
    const name = variableName(change.name ? change.name : currentName);
    const data = checkValue(change.value);
    const taken = () => new AlreadyExistsError(`variable name ${name} already exists`);
    await this.ctx.db
      .transaction()
      .execute(async (trx) => {
        if (name !== existing.name && (await actionSettings.findSetting(trx, "actionVariable", scope, name)))
          throw taken();
        if (!(await actionSettings.updateSetting(trx, "actionVariable", existing.id, { name, data })))
          throw new NotFoundError("variable not found");
      })
      .catch((error: unknown) => {
        // A concurrent rename to the same name took it between the check and the update.
        if (isUniqueViolation(error)) throw taken();
        throw error;
      });
  }

  /** Deletes a variable: 400 for a bad name, 404 when absent. */
  async deleteVariable(actor: Actor, scope: ActionScope, rawName: string): Promise<void> {
    refusePublicOnly(actor);
    const name = variableName(rawName);
    if (!(await actionSettings.deleteSetting(this.ctx.db, "actionVariable", scope, name)))
      throw new NotFoundError("variable not found");
  }

  private async variable(scope: ActionScope, name: string): Promise<ActionSettingRow> {
    const row = await actionSettings.findSetting(this.ctx.db, "actionVariable", scope, name.toUpperCase());
    if (!row) throw new NotFoundError("variable not found");
    return row;
  }
}
