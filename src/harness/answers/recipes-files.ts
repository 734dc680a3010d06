/**
 * SHAPE-8 recipes of file_operations.yaml (API token of base 0). A file a recipe needs is
 * uploaded by it, named with the run's prefix, and deleted afterwards; base assets go where
 * Get Upload Link says (`files/<month>`), custom-folder files to the custom folder's root.
 */
import { uploadCall, uploadedPath, uploadLink, type LinkKind, type UploadLink } from '../uploads.js';
import { api, jsonOf, obj, tag } from './calls.js';
import { type Kit, type Recipes } from './kit.js';
import { setupOk } from '../outcome.js';

const DELETE_OF: Record<LinkKind, string> = { asset: 'deleteBaseAsset', custom: 'deleteBaseCustomFolderAsset' };
const fileName = (k: Kit) => `${k.state.tablePrefix}file-${tag()}.txt`;
const bytes = (name: string) => Buffer.from(`conformance SHAPE-8 ${name}\n`);

/** Delete the file at `path` (a link's kind says which call) after the check. */
function deleteLater(k: Kit, link: UploadLink, path: string): void {
  k.undo(`file ${path}`, () => k.target.call(api('DELETE', DELETE_OF[link.kind], { query: { path }, expect: [404] })));
}

/** Upload a file of the run's own through a link of `kind`; its path for later calls. */
async function ownFile(k: Kit, kind: LinkKind): Promise<{ link: UploadLink; path: string; name: string }> {
  const link = await uploadLink(k.target, [kind]);
  const given = fileName(k);
  const r = await k.target.call(uploadCall(link, given, bytes(given)));
  setupOk(r, `upload ${given}`);
  // The file server may rename a file whose name is taken: its answer says the name it kept.
  const answer = jsonOf(r);
  const named = Array.isArray(answer) ? obj(answer[0]).name : undefined;
  const kept = typeof named === 'string' ? named : given;
  const path = uploadedPath(link, kept);
  deleteLater(k, link, path);
  return { link, path, name: kept };
}

export const FILE_RECIPES: Recipes = {
  getUploadLink: {
    async run(k) {
      await k.main(api('GET', 'getUploadLink'));
    },
  },
  uploadFile: {
    async run(k) {
      // The documented link is Get Upload Link's; the custom folder's goes to the same file server.
      const link = await uploadLink(k.target, ['asset', 'custom']);
      const name = fileName(k);
      const r = await k.main(uploadCall(link, name, bytes(name)));
      const answer = jsonOf(r);
      const kept = Array.isArray(answer) ? obj(answer[0]).name : undefined;
      deleteLater(k, link, uploadedPath(link, typeof kept === 'string' ? kept : name));
    },
  },
  getFileDownloadLink: {
    async run(k) {
      const f = await ownFile(k, 'asset');
      await k.main(api('GET', 'getFileDownloadLink', { query: { path: f.path } }));
    },
  },
  deleteBaseAsset: {
    async run(k) {
      const f = await ownFile(k, 'asset');
      await k.main(api('DELETE', 'deleteBaseAsset', { query: { path: f.path } }));
    },
  },
  customFolderContent: {
    async run(k) {
      await k.main(api('GET', 'customFolderContent', { query: { path: '/' } }));
    },
  },
  customFileMetadata: {
    async run(k) {
      const f = await ownFile(k, 'custom');
      await k.main(api('GET', 'customFileMetadata', { query: { path: '/', name: f.name } }));
    },
  },
  deleteBaseCustomFolderAsset: {
    async run(k) {
      const f = await ownFile(k, 'custom');
      await k.main(api('DELETE', 'deleteBaseCustomFolderAsset', { query: { path: f.path } }));
    },
  },
  customUploadLink: {
    async run(k) {
      await k.main(api('GET', 'customUploadLink', { query: { path: '/' } }));
    },
  },
  customDownloadLink: {
    async run(k) {
      const f = await ownFile(k, 'custom');
      await k.main(api('GET', 'customDownloadLink', { query: { path: f.path } }));
    },
  },
};
