/**
 * Every documented operation of the real service's OpenAPI files (spec/openapi-operations.json)
 * that the endpoint table leaves out, with the reason. Groups are by file (and, for the user's
 * operations, by the documentation's own section); operations are named one by one, so an
 * operation a new OpenAPI release adds is neither in the table nor here and fails
 * src/spec/operations.test.ts until someone decides about it.
 */
import { OA } from './endpoints/types.js';

interface OutOfScope {
  /** The OpenAPI file (of openapi_input/). */
  readonly file: string;
  readonly operationId: string;
  readonly reason: string;
}

const PYTHON_SCHEDULER = 'python-scheduler.yaml';
const SYSTEM_ADMIN = OA.admin;
const TEAM_ADMIN = OA.team;
const USER = OA.user;

const group = (file: string, reason: string, operations: string[]): OutOfScope[] => operations.map((operationId) => ({ file, operationId, reason }));

export const OUT_OF_SCOPE: readonly OutOfScope[] = [
  ...group(PYTHON_SCHEDULER, 'the Python scheduler: a separate service with its own token, self-hosted only; not the base-data API', [
    'scriptRunsPerUser', 'scriptRunsPerTeam', 'scriptRunsPerBase', 'getStatisticsGroupedByBase', 'getStatisticsGroupedByDay', 'listRuns',
  ]),
  ...group(SYSTEM_ADMIN, 'system administration of a whole server: not used by base clients; out of scope of the base-data conformance (the few that §4.1–§4.3 name are in the table)', [
    'listUsers', 'addNewUser', 'getUser', 'deleteUser', 'listAdminUsers', 'updateAdminRole', 'resetUserPassword', 'enforceTwoFactor', 'disableTwoFactor',
    'searchUser', 'importUsers', 'listBasesSharedToUser', 'listUserStorageObjects', 'listUsersBases', 'listAllBases', 'deleteBase', 'listTrashedBases',
    'restoreTrashedBase', 'listBaseNotifications', 'deleteBasePassword', 'listGroups', 'createGroup', 'transferGroup', 'deleteGroup', 'listTeams',
    'addTeam', 'listTeamBases', 'getOrganizationNames', 'searchTeam', 'deleteTeam', 'listTeamUsers', 'addTeamUser', 'updateTeamUser', 'deleteTeamUser',
    'listTeamGroups', 'deleteTeamGroup', 'listCommonDataset', 'listCommonDatasetSyncs', 'listInvalidSyncs', 'deleteInvalidSyncs', 'deleteInvalidSync',
    'listDepartments', 'addDepartment', 'getDepartments', 'deleteDepartment', 'listBaseExternalLinks', 'listExternalLinks', 'deleteBaseExternalLink',
    'listViewExternalLinks', 'deleteViewExternalLink', 'listForms', 'deleteForm', 'listDataCollectionForms', 'deleteDataCollectionForms',
    'listAutomations', 'deleteAutomation', 'listInvalidAutomations', 'deleteInvalidAutomations', 'listNotificationRules', 'deleteNotificationRule',
    'listInvalidNotifications', 'deleteInvalidNotifications', 'listEmailLogs', 'listLoginLogs', 'listRegistrationLogs', 'listAbuseReports',
    'updateAbuseReport', 'listAuditLogs', 'listGroupMemberAuditLogs', 'listFileAccessLogs', 'listVirusFiles', 'updateVirusFile', 'deleteVirusFile',
    'listPlugins', 'addPlugin', 'updatePlugin', 'deletePlugin', 'getActiveUsersPerDay', 'listActiveUsersByDay', 'getAutomationRules',
    'getScriptRunningCountByUser', 'listScriptTasks', 'getExternalApps', 'getOwnerOrTeamAIStatistics', 'repairBase', 'listNotifications',
    'addNotificationToUser', 'deleteNotification', 'getSystemInformation', 'updateGeneralSettings', 'updateLogo', 'updateFavicon',
    'updateLoginBackgroundImage',
  ]),
  ...group(TEAM_ADMIN, 'team administration (members, groups, sharing, settings, logs, statistics, SAML): not used by base clients (the few that §4.2–§4.3 name are in the table)', [
    'listTeamUsers', 'deleteUser', 'resetUserPassword', 'enforceTwofactor', 'disableTwoFactor', 'listBases', 'listUsersBases', 'getBase', 'deleteBase',
    'listTrashBases', 'clearTeamTrashBin', 'restoreBaseFromTrash', 'searchBase', 'listGroups', 'addGroup', 'getGroup', 'updateGroup', 'deleteGroup',
    'listGroupBases', 'orderGroups', 'listGroupMembers', 'addGroupMembers', 'updateGroupMemberRole', 'removeGroupMembers', 'listBaseSharings',
    'listApiTokens', 'deleteApiToken', 'listApiTokensOfAllBases', 'listShares', 'listBaseExternalLinks', 'deleteExternalLink', 'listViewExternalLinks',
    'deleteViewExternalLink', 'listInviteLinks', 'updateInviteLink', 'deleteInviteLink', 'getTeamSettings', 'updateTeamSettings', 'deleteTeam',
    'listGroupMemberAuditLogs', 'listUserLogins', 'listFileAccessLogs', 'listAutomationLogs', 'listPythonRuns', 'getAdminLogStatisticsByDay',
    'getAutomationLogStatisticsByDay', 'getAutomationLogStatisticsByBase', 'getLoginLogStatisticsByDay', 'getPythonRunStatisticsByDay',
    'getPythonRunStatisticsByBase', 'getUserOrBaseAIStatistics', 'getSamlConfig', 'updateSamlConfig', 'deleteSamlConfig', 'verifySamlDomain',
  ]),
  ...group(USER, "the user's profile and the user directory: no base data", [ // User
    'updateEmailAddress', 'addUserAvatar', 'getPublicUserInfo', 'listPublicUserInfos', 'searchUser',
  ]),
  ...group(USER, 'organising bases as the web interface does (list, rename, favourites, folders, password, size, trash): a base client finds bases with List Workspaces and manages them with create, copy and delete', [ // Bases
    'listBases', 'updateBase', 'getBaseSize', 'listFavorites', 'favoriteBase', 'unfavoriteBase', 'createFolder', 'updateFolder', 'deleteFolder',
    'moveBaseIntoFolder', 'basePassword', 'listTrashedBases', 'clearTrash', 'restoreTrashedBase', 'listGroupTrashedBases', 'restoreGroupTrashedBase',
  ]),
  ...group(USER, 'groups and their members, and copying a base from an external link: collaboration management, not base data', [ // Groups & Workspaces
    'listGroups', 'createGroup', 'getGroup', 'updateGroup', 'deleteGroup', 'searchGroup', 'getGroupMembers', 'addGroupMember', 'updateGroupRole',
    'removeGroupMember', 'searchGroupMembers', 'copyBaseFromExternalLink',
  ]),
  ...group(USER, 'base assets handled with the account token: base clients use the API-token file operations (files.ts) instead', [ // Attachment
    'getBaseAttachmentUploadLink', 'listBaseAssets', 'deleteBaseAsset', 'listRecentlyUploadedFiles', 'renameBaseAsset', 'deleteBaseAssets',
    'checkIfAssetExists',
  ]),
  ...group(USER, 'imports and exports other than those §4.1 and §4.2 name (base export, append Excel/CSV, big-data view to Excel)', [ // Import & Export
    'importBasefromFile', 'importTableFromFile', 'importBasefromDTableFile', 'updateFromFile', 'exportTable', 'exportView', 'exportBaseFromExternalLink',
  ]),
  ...group(USER, 'sharing bases and views with users and groups: collaboration management, not base data', [ // Sharing
    'listMyShares', 'listUserShares', 'createUserShare', 'updateUserShare', 'deleteUserShare', 'listMyGroupShares', 'listGroupShares', 'createGroupShare',
    'updateGroupShare', 'deleteGroupShare', 'listMyGroupViewShares', 'listGroupViewShares', 'createGroupViewShare', 'deleteGroupAllViewShare',
    'updateGroupViewShare', 'deleteGroupViewShare', 'listMyUserViewShares', 'listUserViewShares', 'createUserViewShare', 'deleteUserAllViewShare',
    'updateUserViewShare', 'deleteUserViewShare', 'leaveSharedView', 'listCollaboratorsAsUser',
  ]),
  ...group(USER, 'external and invite links: sharing with people outside the team, not base data', [ // Sharing Links
    'listBaseExternalLinks', 'createBaseExternalLink', 'deleteExternalLink', 'listViewExternalLinks', 'createViewExternalLink', 'deleteViewExternalLink',
    'createInviteLink', 'deleteInviteLink',
  ]),
  ...group(USER, 'common datasets (tables synchronised between bases): a separate feature of the web interface', [ // Common Dataset
    'publishCommonDataset', 'listCommonDataset', 'importCommonDataset', 'getCommonDatasetInfo', 'getCommonDataset', 'renameCommonDataset',
    'deleteCommonDataset', 'updateCommonDatasetSync', 'syncCommonDataset', 'listSyncHistory',
  ]),
  ...group(USER, "the team's address book: directory data, not base data", [ // Departments
    'listDepartments', 'listDeparmentMembers',
  ]),
  ...group(USER, "forms: a web-interface feature for collecting rows from people, not an API client's path to base data", [ // Forms
    'listForms', 'createForm', 'updateForm', 'deleteForm', 'duplicateForm', 'uploadFormLogo', 'listSharedForms',
  ]),
  ...group(USER, 'automation rules: server-side features configured for the web interface', [ // Automations
    'listAutomationRules', 'createAutomationRule', 'updateAutomationRule', 'deleteAutomationRule',
  ]),
  ...group(USER, 'repairing a damaged base: maintenance, not base data', [ // Maintenance
    'repairBase',
  ]),
  ...group(USER, "notification rules and the user's own notifications: web-interface features (base notifications are on the gateway, in the table)", [ // Notifications
    'listNotificationRules', 'addNotificationRule', 'updateNotificationRule', 'deleteNotificationRule', 'markNotificationAsSeen',
  ]),
  ...group(USER, 'system notices to the user: not base data', [ // System Notifications
    'listSystemNotifications', 'markSystemNotificationsAsSeen',
  ]),
  ...group(USER, 'third-party e-mail accounts of a base, used by automations: not base data', [ // Email Accounts
    'listEmailAccounts', 'addEmailAccount', 'updateEmailAccount', 'deleteEmailAccount', 'getEmailAccount', 'getEmailSendingStatus',
  ]),
  ...group(USER, "restoring snapshots and big-data backups with the account token: maintenance (the gateway's Create Snapshot is in the table)", [ // Snapshots
    'listSnapshots', 'restoreSnapshot', 'listBigDataBackups', 'getBigDataStatus',
  ]),
  ...group(USER, "activity feeds of the web interface (the gateway's base and row logs are in the table)", [ // Activities & Logs
    'getBaseActivities', 'getBaseActivityDetails', 'getBigDataOperationLogs',
  ]),
];
