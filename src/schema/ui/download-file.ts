/** A file as the gateway answers it (a PDF sheet, an invoice): its name, type and base64 bytes. */
export interface FileAnswer {
  file_name: string;
  content_type: string;
  data: string;
}

/** Hands `blob` to the browser as a download named `fileName`, then lets its memory go. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the file after the click returns: the link is let go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Hands a gateway file answer to the browser as a download. */
export function downloadFileAnswer(answer: FileAnswer): void {
  const bytes = Uint8Array.from(atob(answer.data), (character) => character.charCodeAt(0));
  downloadBlob(new Blob([bytes], { type: answer.content_type }), answer.file_name);
}
