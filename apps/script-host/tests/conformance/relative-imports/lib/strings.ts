export const upper = (text: string): string => text.toUpperCase();
export const lower = (text: string): string => text.toLowerCase();
