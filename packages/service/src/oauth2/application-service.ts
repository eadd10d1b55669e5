import { NotFoundError, type Paged, type PageRequest, type User } from "@kiln/domain";
import { type OAuth2ApplicationRecord, oauth2Applications } from "@kiln/storage";
import { hashTokenSecret } from "../auth/token-secret.js";
import type { ServiceContext } from "../context.js";
import { generateClientId, generateClientSecret } from "./client-secret.js";

/** What a user sends to create or update an application (Forgejo's CreateOAuth2ApplicationOptions). */
export interface ApplicationInput {
  readonly name: string;
  readonly confidentialClient: boolean;
  readonly redirectUris: readonly string[];
}

/** An application with the secret just generated: the only moment it exists outside the client. */
export interface ApplicationWithSecret {
  readonly application: OAuth2ApplicationRecord;
  readonly secret: string;
}

/**
 * A user's OAuth2 applications (Forgejo's routers/api/v1/user/app.go). The client secret is stored
 * hashed and shown when created and when an update regenerates it, as Forgejo does. Another user's
 * application is not found. Deleting an application deletes its grants, so its tokens stop working.
 */
export class OAuth2ApplicationService {
  constructor(private readonly ctx: ServiceContext) {}

  list(user: User, page: PageRequest): Promise<Paged<OAuth2ApplicationRecord>> {
    return oauth2Applications.listApplications(this.ctx.db, user.id, page);
  }

  async get(user: User, id: number): Promise<OAuth2ApplicationRecord> {
    return (await oauth2Applications.findApplicationOf(this.ctx.db, user.id, id)) ?? notFound(id);
  }

  async create(user: User, input: ApplicationInput): Promise<ApplicationWithSecret> {
    const secret = generateClientSecret();
    const application = await oauth2Applications.insertApplication(this.ctx.db, user.id, generateClientId(), {
      ...input,
      clientSecretHash: hashTokenSecret(secret),
    });
    return { application, secret };
  }

  /** Forgejo's UpdateOauth2Application: sets every field and regenerates the secret. */
  async update(user: User, id: number, input: ApplicationInput): Promise<ApplicationWithSecret> {
    const secret = generateClientSecret();
    const application =
      (await oauth2Applications.updateApplication(this.ctx.db, user.id, id, {
        ...input,
        clientSecretHash: hashTokenSecret(secret),
      })) ?? notFound(id);
    return { application, secret };
  }

  async delete(user: User, id: number): Promise<void> {
    const grants = await this.ctx.db
      .transaction()
      .execute((trx) => oauth2Applications.deleteApplication(trx, user.id, id));
    if (!grants) notFound(id);
  }
}

function notFound(id: number): never {
  throw new NotFoundError(`OAuth Application does not exist [id: ${id}]`);
}
