export const messages = {
  en: { success: "Success", failed: "Failed", done: "Done", pending: "Pending" },
  fr: { success: "Succès", failed: "Échec", done: "Terminé", pending: "En attente" },
};

export const STATUS_LABELS: Record<string, string> = {
  success: "Succeeded",
  failed: "Failed",
  done: "Done",
  in_progress: "In progress",
};

export function label(status: string, lang: "en" | "fr" = "en") {
  return STATUS_LABELS[status] ?? messages[lang][status];
}
