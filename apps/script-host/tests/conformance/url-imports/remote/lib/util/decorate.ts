export const decorate = (text: string): string => `*${text}*`;
