import { createRequire } from "node:module";
import type IsolatedVM from "isolated-vm-5";

/**
 * The isolated-vm build for the running Node: isolated-vm 5 supports Node 20 only and 6 supports
 * Node 22 to 24, so both are installed under aliases (`isolated-vm-5`, built from source on
 * install; `isolated-vm-6`, which ships prebuilt binaries) and the one that fits is loaded. Their
 * APIs are the same for what Kiln uses.
 */
export const ivmPackage =
  Number(process.versions.node.split(".")[0]) >= 22 ? "isolated-vm-6" : "isolated-vm-5";

function load(): typeof IsolatedVM {
  try {
    return createRequire(import.meta.url)(ivmPackage) as typeof IsolatedVM;
  } catch (failure) {
    const reason = failure instanceof Error ? failure.message.split("\n")[0] : String(failure);
    throw new Error(
      `kiln-run needs ${ivmPackage} (isolated-vm for Node ${process.versions.node}), which cannot be loaded: ${reason}. Run "pnpm install" under this Node.`,
    );
  }
}

const ivm: typeof IsolatedVM = load();
export default ivm;
