import { upper } from "./strings.ts";

export const shout = (text: string): string => `${upper(text)}!`;
