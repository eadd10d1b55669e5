/** A Git LFS lock as the locks API shows it: with its owner's name. */
export interface LfsLock {
  readonly id: number;
  readonly repoId: number;
  readonly ownerId: number;
  readonly ownerName: string;
  readonly path: string;
  readonly createdAt: Date;
}
