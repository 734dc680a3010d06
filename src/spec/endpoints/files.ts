/**
 * Files and images of a base (file_operations.yaml; §4.2 names the custom-folder ones by
 * operation only). All take the API token — not a base token — and live under /api/v2.1/
 * (account family and rate class), except the upload itself: see `uploadFile`.
 */
import { family, oa, p, type Endpoint } from './types.js';

const PATH = p.query('path', 'string', true);

export const FILES: readonly Endpoint[] = [
  ...family('account', 'account', 'compat', [
    { id: 'getUploadLink', method: 'GET', path: '/api/v2.1/dtable/app-upload-link/', credential: 'api-token', clauses: ['ACCT-9'], operation: 'Get Upload Link', params: [], openapi: oa('files', 'getUploadLink') },
    { id: 'getFileDownloadLink', method: 'GET', path: '/api/v2.1/dtable/app-download-link/', credential: 'api-token', clauses: ['ACCT-9'], operation: 'Get File Download Link', params: [PATH], openapi: oa('files', 'getFileDownloadLink') },
    { id: 'deleteBaseAsset', method: 'DELETE', path: '/api/v2.1/dtable/app-asset/', credential: 'api-token', clauses: ['ACCT-9'], operation: 'Delete a Base Asset', params: [PATH], openapi: oa('files', 'deleteBaseAsset') },
    // The custom folder
    { id: 'customFolderContent', method: 'GET', path: '/api/v2.1/dtable/custom/app-asset-dir/', credential: 'api-token', clauses: ['ROUTE-2', 'ACCT-9'], operation: 'Get Folder Content (Custom Folder)', params: [PATH], openapi: oa('files', 'getCustomFiles') },
    {
      id: 'customFileMetadata', method: 'GET', path: '/api/v2.1/dtable/custom/app-asset-file/', credential: 'api-token', clauses: ['ROUTE-2'], operation: 'Get File Metadata (Custom Folder)',
      params: [p.query('path', 'string', true, 'the folder'), p.query('name', 'string', true, 'the file in it')], openapi: oa('files', 'getCustomFileMetadata'),
    },
    {
      id: 'deleteBaseCustomFolderAsset', method: 'DELETE', path: '/api/v2.1/dtable/custom/app-asset-file/', credential: 'api-token', clauses: ['ACCT-9'], operation: 'Delete a Base Asset (Custom Folder)',
      params: [p.query('path', 'string', true, 'folder and file name')], openapi: oa('files', 'deleteBaseCustomFolderAsset'),
    },
    { id: 'customUploadLink', method: 'GET', path: '/api/v2.1/dtable/custom/app-upload-link/', credential: 'api-token', clauses: ['ROUTE-2', 'ACCT-9'], operation: 'Get Upload Link (Custom Folder)', params: [PATH], openapi: oa('files', 'getCustomUploadLink') },
    {
      id: 'customDownloadLink', method: 'GET', path: '/api/v2.1/dtable/custom/app-download-link/', credential: 'api-token', clauses: ['ROUTE-2'], operation: 'Get Download Link (Custom Folder)',
      params: [p.query('path', 'string', true, 'folder and file name')], openapi: oa('files', 'getCustomDownloadLink'),
    },
  ]),
  // The upload goes to the file server behind /seafhttp/, at the link an upload-link call
  // answered. The one-off token in that link is the credential: the OpenAPI lists the API
  // token, but the Python client sends no Authorization header. Rate class `exempt`: §8.1
  // counts /api/v2.1/*, /api-gateway/api/v2/* and /api2/auth-token, and this path is none of
  // them (the link itself comes from a counted account call). §8.1.1 exempts only /ping and
  // /server-info, so the row claims no RATE-1 clause either way.
  ...family('file-server', 'exempt', 'compat', [
    {
      id: 'uploadFile', method: 'POST', path: '/seafhttp/upload-api/{upload_link}', credential: 'upload-link', clauses: ['ACCT-9'], operation: 'Upload File (or Image)',
      params: [
        p.path('upload_link', 'string', 'the last segment of the answered upload_link'),
        p.query('ret-json', 'string', true, '1: the documented path carries ?ret-json=1 (a JSON answer)'),
        p.multipart('file', 'file', true), p.multipart('parent_dir', 'string', true, 'parent_path of the upload-link answer'),
        p.multipart('relative_path', 'string', true), p.multipart('replace', 'string', false, '1 to overwrite'),
      ],
      openapi: oa('files', 'uploadFile'),
    },
  ]),
];
