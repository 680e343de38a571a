// A client of a running `basalt serve`'s admin routes (/api/v1/admin, docs/api-v1.md), for the
// commands that act on a store a server holds open: the CLI cannot open that store itself.

#ifndef BASALT_APP_ADMIN_CLIENT_H_
#define BASALT_APP_ADMIN_CLIENT_H_

#include <string>

#include "basalt/backup.h"
#include "basalt/status.h"

namespace basalt::app {

// Asks the server at `url` ("http://HOST:PORT" or "HOST:PORT") for a backup of its store into its
// own backup directory (serve --backup-dir), sending `admin_token` unless it is empty, and waits
// for it. A refusal (a missing or wrong token, a server that takes no backups or is taking one)
// is FailedPrecondition with the server's status and message; IOError when the server cannot be
// reached or does not answer.
Result<BackupInfo> TakeBackupThroughServer(const std::string& url, const std::string& admin_token);

}  // namespace basalt::app

#endif  // BASALT_APP_ADMIN_CLIENT_H_
