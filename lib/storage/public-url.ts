/** Public URL of an object in a public bucket (no signing needed). */
export function publicObjectUrl(supabaseUrl: string, bucket: string, path: string): string {
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  return `${supabaseUrl}/storage/v1/object/public/${bucket}/${encoded}`;
}
