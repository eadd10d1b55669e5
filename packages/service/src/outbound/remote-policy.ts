import type { Settings } from "@kiln/domain";
import type { CheckRemoteOptions } from "@kiln/git";
import { remoteAddressAllowed } from "./address-class.js";

/**
 * What git may connect to for a migration or a mirror (pull or push): the shared classifier's
 * public addresses, and loopback and private ones with `[migrations] ALLOW_LOCALNETWORKS`.
 */
export function remotePolicy(settings: Settings): CheckRemoteOptions {
  const allowLocalNetworks = settings.migrations.allowLocalNetworks;
  return { allows: (address) => remoteAddressAllowed(address, allowLocalNetworks) };
}
