import type { QuotaGroupRecord, QuotaRuleRecord, User } from "@kiln/domain";
import { isUniqueViolation, quotaGroups, quotaRules, type StoredQuotaGroup, users } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { userNotFound } from "../users/user-service.js";
import { quotaErrors } from "./quota-errors.js";
import { parseSubjectList } from "./subjects.js";

/** What creating a rule takes (Forgejo's CreateQuotaRuleOptions). */
export interface QuotaRuleInput {
  readonly name: string;
  /** Bytes, `-1` unlimited. Required for a rule created on its own; 0 when a group creates it. */
  readonly limit?: number | null | undefined;
  readonly subjects?: readonly string[] | null | undefined;
}

/** What editing a rule takes: only what is given changes. */
export interface QuotaRulePatch {
  readonly limit?: number | null | undefined;
  readonly subjects?: readonly string[] | null | undefined;
}

/**
 * Quota administration (Forgejo's routers/api/v1/admin/quota_*.go): rules, groups, which rules a
 * group holds and which users and organizations a group applies to. Names are exact (case matters).
 */
export class QuotaAdminService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Every rule, by name. */
  async listRules(): Promise<QuotaRuleRecord[]> {
    return (await quotaRules.listRules(this.ctx.db)).map(record);
  }

  /** The rule with this name (404 otherwise). */
  async getRule(name: string): Promise<QuotaRuleRecord> {
    return record(await this.findRule(name));
  }

  /** Creates a rule; 422 without a limit or with an unknown subject, 409 when the name is taken. */
  async createRule(input: QuotaRuleInput): Promise<QuotaRuleRecord> {
    if (input.limit === undefined || input.limit === null) throw quotaErrors.limitRequired();
    const subjects = parseSubjectList(input.subjects ?? []);
    try {
      return record(
        await quotaRules.insertRule(this.ctx.db, { name: input.name, limit: input.limit, subjects }),
      );
    } catch (err) {
      if (isUniqueViolation(err, "quota_rule_name_key")) throw quotaErrors.ruleExists(input.name);
      throw err;
    }
  }

  /** Changes a rule's limit and/or subjects (an empty patch changes nothing). */
  async editRule(name: string, patch: QuotaRulePatch): Promise<QuotaRuleRecord> {
    const rule = await this.findRule(name);
    const subjects =
      patch.subjects === undefined || patch.subjects === null ? undefined : parseSubjectList(patch.subjects);
    const updated = await quotaRules.updateRule(this.ctx.db, rule.id, {
      ...(patch.limit !== undefined && patch.limit !== null ? { limit: patch.limit } : {}),
      ...(subjects ? { subjects } : {}),
    });
    if (!updated) throw quotaErrors.notFound();
    return record(updated);
  }

  /** Deletes a rule; it leaves every group that held it. */
  async deleteRule(name: string): Promise<void> {
    const rule = await this.findRule(name);
    await quotaRules.deleteRule(this.ctx.db, rule.id);
  }

  /** Every group with its rules, by name. */
  async listGroups(): Promise<QuotaGroupRecord[]> {
    return (await quotaGroups.loadGroups(this.ctx.db, { all: true })).map(groupRecord);
  }

  /** The group with this name and its rules (404 otherwise). */
  async getGroup(name: string): Promise<QuotaGroupRecord> {
    const group = await this.findGroup(name);
    const [loaded] = await quotaGroups.loadGroups(this.ctx.db, { ids: [group.id] });
    if (!loaded) throw quotaErrors.notFound();
    return groupRecord(loaded);
  }

  /**
   * Creates a group, in one transaction with its rules: a rule that exists is attached as it is
   * (the limit and subjects given for it are ignored), a missing one is created (limit 0 when
   * none is given). 409 when the group exists, 422 for an unknown subject of a new rule.
   */
  async createGroup(name: string, rules: readonly QuotaRuleInput[] = []): Promise<QuotaGroupRecord> {
    try {
      const id = await this.ctx.db.transaction().execute(async (trx) => {
        if (await quotaGroups.findGroupByName(trx, name)) throw quotaErrors.groupExists(name);
        const group = await quotaGroups.insertGroup(trx, name);
        for (const input of rules) {
          const rule =
            (await quotaRules.findRuleByName(trx, input.name)) ??
            (await quotaRules.insertRule(trx, {
              name: input.name,
              limit: input.limit ?? 0,
              subjects: parseSubjectList(input.subjects ?? []),
            }));
          await quotaGroups.addRuleToGroup(trx, group.id, rule.id);
        }
        return group.id;
      });
      const [loaded] = await quotaGroups.loadGroups(this.ctx.db, { ids: [id] });
      if (!loaded) throw quotaErrors.notFound();
      return groupRecord(loaded);
    } catch (err) {
      if (isUniqueViolation(err, "quota_group_name_key")) throw quotaErrors.groupExists(name);
      throw err;
    }
  }

  /** Deletes a group and its assignments; its rules stay. */
  async deleteGroup(name: string): Promise<void> {
    const group = await this.findGroup(name);
    await quotaGroups.deleteGroup(this.ctx.db, group.id);
  }

  /** Adds a rule to a group: 404 for an unknown group or rule, 409 when it is already there. */
  async addRuleToGroup(groupName: string, ruleName: string): Promise<void> {
    const group = await this.findGroup(groupName);
    const rule = await this.findRule(ruleName);
    if (!(await quotaGroups.addRuleToGroup(this.ctx.db, group.id, rule.id)))
      throw quotaErrors.ruleInGroup(group.name, rule.name);
  }

  /** Removes a rule from a group: 404 for an unknown group or rule, or a rule not in the group. */
  async removeRuleFromGroup(groupName: string, ruleName: string): Promise<void> {
    const group = await this.findGroup(groupName);
    const rule = await this.findRule(ruleName);
    if (!(await quotaGroups.removeRuleFromGroup(this.ctx.db, group.id, rule.id)))
      throw quotaErrors.notFound();
  }

  /** The users and organizations a group is assigned to. */
  async listGroupOwners(groupName: string): Promise<User[]> {
    const group = await this.findGroup(groupName);
    return quotaGroups.ownersOfGroup(this.ctx.db, group.id);
  }

  /** Assigns a group to a user or organization: 404 for either unknown, 409 when already assigned. */
  async addOwnerToGroup(groupName: string, ownerName: string): Promise<void> {
    const group = await this.findGroup(groupName);
    const owner = await this.findOwner(ownerName);
    if (!(await quotaGroups.addOwnerToGroup(this.ctx.db, group.id, owner.id)))
      throw quotaErrors.ownerInGroup(group.name, owner.id);
  }

  /** Unassigns a group: 404 for an unknown group or owner, or an owner not in the group. */
  async removeOwnerFromGroup(groupName: string, ownerName: string): Promise<void> {
    const group = await this.findGroup(groupName);
    const owner = await this.findOwner(ownerName);
    if (!(await quotaGroups.removeOwnerFromGroup(this.ctx.db, group.id, owner.id)))
      throw quotaErrors.notFound();
  }

  /**
   * Replaces the set of groups assigned to an owner (an empty list removes all; `null` or absent
   * changes nothing, as Forgejo). 422 naming the first group that does not exist.
   */
  async setOwnerGroups(owner: User, names: readonly string[] | null | undefined): Promise<void> {
    if (names === null || names === undefined) return;
    await this.ctx.db.transaction().execute(async (trx) => {
      const ids: number[] = [];
      for (const name of names) {
        const group = await quotaGroups.findGroupByName(trx, name);
        if (!group) throw quotaErrors.unknownGroup(name);
        ids.push(group.id);
      }
      await quotaGroups.setOwnerGroups(trx, owner.id, ids);
    });
  }

  private async findRule(name: string) {
    const rule = await quotaRules.findRuleByName(this.ctx.db, name);
    if (!rule) throw quotaErrors.notFound();
    return rule;
  }

  private async findGroup(name: string): Promise<StoredQuotaGroup> {
    const group = await quotaGroups.findGroupByName(this.ctx.db, name);
    if (!group) throw quotaErrors.notFound();
    return group;
  }

  private async findOwner(name: string): Promise<User> {
    const owner = await users.findUserByName(this.ctx.db, name);
    if (!owner) throw userNotFound(name);
    return owner;
  }
}

function record(rule: QuotaRuleRecord): QuotaRuleRecord {
  return { name: rule.name, limit: rule.limit, subjects: rule.subjects };
}

function groupRecord(group: QuotaGroupRecord): QuotaGroupRecord {
  return { name: group.name, rules: group.rules.map(record) };
}
