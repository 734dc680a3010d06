/**
 * 200 answers of the file operations (file_operations.yaml). Disagreements, accepted both ways:
 * - custom-folder upload and download links: the OpenAPI wraps them in `dirent`; the Python
 *   client reads `upload_link`, `parent_path`, `relative_path` and `download_link` unwrapped
 *   (the reference server answers both at once: BOTH_READERS);
 * - custom-folder content: the OpenAPI shows `{dir, file}` (the reference server's answer);
 *   `{dirent_list}`, the key of seafile's directory listings and the reference server's
 *   answer before, is accepted too.
 */
import { z } from 'zod';
import { ev, type Evidence } from '../evidence.js';
import { success, time } from './common.js';

const customUpload = z.looseObject({ upload_link: z.string(), parent_path: z.string(), relative_path: z.string() });
const downloadLink = z.looseObject({ download_link: z.string() });
const named = z.array(z.looseObject({ name: z.string() }));

export const FILES_RESPONSES = {
  getUploadLink: z.looseObject({ upload_link: z.string(), workspace_id: z.number().int(), parent_path: z.string(), img_relative_path: z.string(), file_relative_path: z.string() }),
  getFileDownloadLink: downloadLink,
  deleteBaseAsset: success,
  customFolderContent: z.union([z.looseObject({ dir: named, file: named }), z.looseObject({ dirent_list: z.array(z.looseObject({ obj_name: z.string(), is_file: z.boolean() })) })]),
  customFileMetadata: z.looseObject({ dirent: z.looseObject({ is_file: z.boolean(), obj_name: z.string(), file_size: z.number().int(), last_update: time, uuid: z.string() }) }),
  deleteBaseCustomFolderAsset: success,
  customUploadLink: z.union([z.looseObject({ dirent: customUpload.extend({ workspace_id: z.number().int() }) }), customUpload]),
  customDownloadLink: z.union([z.looseObject({ dirent: downloadLink }), downloadLink]),
  // The file server's answer with ?ret-json=1: one entry per uploaded file.
  uploadFile: z.array(z.looseObject({ name: z.string(), id: z.string(), size: z.number().int() })),
} satisfies Record<string, z.ZodType>;

/**
 * Answers the API description and an official client read in different forms: the schemas
 * above accept either (each form's evidence: `documented` inside `dirent`, `client` at the top
 * level), and the reference server answers both at once (the fields at the top
 * level and inside `dirent`), so a client written from either works against it.
 */
export const BOTH_READERS: Readonly<Record<'customUploadLink' | 'customDownloadLink', { fields: readonly string[]; dirent: Evidence; topLevel: Evidence }>> = {
  customUploadLink: {
    fields: ['upload_link', 'parent_path', 'relative_path'],
    dirent: ev.documented('OA62 file_operations#getCustomUploadLink (its example: the fields inside `dirent`)'),
    topLevel: ev.client('seatable/seatable-api-python seatable_api/main.py SeaTableAPI.upload_local_file_to_custom_folder (reads upload_link, parent_path and relative_path at the top level of get_custom_file_upload_link\'s answer)'),
  },
  customDownloadLink: {
    fields: ['download_link'],
    dirent: ev.documented('OA62 file_operations#getCustomDownloadLink (its example: download_link inside `dirent`)'),
    topLevel: ev.client('seatable/seatable-api-python seatable_api/main.py SeaTableAPI.get_custom_file_download_link (returns download_link of the top level; download_custom_file uses it)'),
  },
};
