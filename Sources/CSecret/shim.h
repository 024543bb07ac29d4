// The part of libsecret-1 (and of GLib/GIO under it) that Latchkey calls, declared here instead of
// including <libsecret/secret.h>. Why: the real headers need GLib's include paths, which only pkg-config
// knows, and libsecret's pkg-config file adds `-pthread`, a flag SwiftPM refuses with a warning on every
// build. Every declaration below is copied from the public headers of libsecret 0.20 / GLib 2.74 (stable
// ABI since libsecret 0.18); the libraries themselves are linked by name (see module.modulemap).
#ifndef LATCHKEY_CSECRET_SHIM_H
#define LATCHKEY_CSECRET_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

// GLib basics.
typedef int csecret_gboolean;
typedef uint32_t GQuark;
typedef struct _GError { GQuark domain; int code; char *message; } GError;
typedef struct _GList { void *data; struct _GList *next; struct _GList *prev; } GList;
typedef struct _GHashTable GHashTable;
typedef struct _GCancellable GCancellable;
typedef unsigned int (*csecret_hash_func)(const void *key);
typedef csecret_gboolean (*csecret_equal_func)(const void *a, const void *b);
typedef void (*csecret_destroy_func)(void *data);

void g_error_free(GError *error);
const char *g_quark_to_string(GQuark quark);
void g_free(void *mem);
char *g_strdup(const char *str);
unsigned int g_str_hash(const void *v);
csecret_gboolean g_str_equal(const void *v1, const void *v2);
GHashTable *g_hash_table_new_full(csecret_hash_func hash, csecret_equal_func equal,
                                  csecret_destroy_func key_destroy, csecret_destroy_func value_destroy);
csecret_gboolean g_hash_table_insert(GHashTable *table, void *key, void *value);
void *g_hash_table_lookup(GHashTable *table, const void *key);
GList *g_hash_table_get_keys(GHashTable *table);
void g_hash_table_unref(GHashTable *table);
void g_list_free(GList *list);
void g_list_free_full(GList *list, csecret_destroy_func free_func);
void *g_object_ref(void *object);
void g_object_unref(void *object);

// GDBus, only to ask the bus whether the Secret Service is running (no activation of a second daemon).
typedef struct _GDBusConnection GDBusConnection;
typedef struct _GVariant GVariant;
typedef struct _GVariantType GVariantType;
GDBusConnection *g_bus_get_sync(int bus_type, GCancellable *cancellable, GError **error);
GVariant *g_dbus_connection_call_sync(GDBusConnection *connection, const char *bus_name, const char *object_path,
                                      const char *interface_name, const char *method_name, GVariant *parameters,
                                      const GVariantType *reply_type, int flags, int timeout_msec,
                                      GCancellable *cancellable, GError **error);
GVariant *g_variant_new_string(const char *string);
GVariant *g_variant_new_tuple(GVariant *const *children, size_t n_children);
GVariant *g_variant_get_child_value(GVariant *value, size_t index);
csecret_gboolean g_variant_get_boolean(GVariant *value);
csecret_gboolean g_variant_is_of_type(GVariant *value, const GVariantType *type);
const GVariantType *g_variant_get_type(GVariant *value);
const char *g_variant_get_type_string(GVariant *value);
void g_variant_unref(GVariant *value);
enum { CSECRET_G_BUS_TYPE_SESSION = 2, CSECRET_G_DBUS_CALL_FLAGS_NO_AUTO_START = 1 };

// libsecret.
typedef struct _SecretSchema SecretSchema;
typedef struct _SecretValue SecretValue;
typedef struct _SecretService SecretService;
typedef struct _SecretCollection SecretCollection;
typedef struct _SecretItem SecretItem;

enum {
    CSECRET_ERROR_PROTOCOL = 1, CSECRET_ERROR_IS_LOCKED = 2, CSECRET_ERROR_NO_SUCH_OBJECT = 3,
    CSECRET_ERROR_ALREADY_EXISTS = 4, CSECRET_ERROR_INVALID_FILE_FORMAT = 5,
};
enum { CSECRET_SCHEMA_NONE = 0, CSECRET_SCHEMA_DONT_MATCH_NAME = 1 << 1 };
enum { CSECRET_ATTRIBUTE_STRING = 0, CSECRET_ATTRIBUTE_INTEGER = 1, CSECRET_ATTRIBUTE_BOOLEAN = 2 };
enum { CSECRET_SEARCH_NONE = 0, CSECRET_SEARCH_ALL = 1 << 1, CSECRET_SEARCH_UNLOCK = 1 << 2,
       CSECRET_SEARCH_LOAD_SECRETS = 1 << 3 };
enum { CSECRET_SERVICE_NONE = 0, CSECRET_SERVICE_OPEN_SESSION = 1 << 1, CSECRET_SERVICE_LOAD_COLLECTIONS = 1 << 2 };
enum { CSECRET_COLLECTION_NONE = 0, CSECRET_COLLECTION_LOAD_ITEMS = 1 << 1 };
enum { CSECRET_ITEM_CREATE_NONE = 0, CSECRET_ITEM_CREATE_REPLACE = 1 << 1 };

GQuark secret_error_get_quark(void);

SecretSchema *secret_schema_newv(const char *name, int flags, GHashTable *attribute_names_and_types);
void secret_schema_unref(SecretSchema *schema);

SecretValue *secret_value_new(const char *secret, ssize_t length, const char *content_type);
const char *secret_value_get(SecretValue *value, size_t *length);
void secret_value_unref(void *value);

csecret_gboolean secret_password_storev_binary_sync(const SecretSchema *schema, GHashTable *attributes,
                                                    const char *collection, const char *label, SecretValue *value,
                                                    GCancellable *cancellable, GError **error);
SecretValue *secret_password_lookupv_binary_sync(const SecretSchema *schema, GHashTable *attributes,
                                                 GCancellable *cancellable, GError **error);
csecret_gboolean secret_password_clearv_sync(const SecretSchema *schema, GHashTable *attributes,
                                             GCancellable *cancellable, GError **error);

SecretService *secret_service_get_sync(int flags, GCancellable *cancellable, GError **error);
GList *secret_service_search_sync(SecretService *service, const SecretSchema *schema, GHashTable *attributes,
                                  int flags, GCancellable *cancellable, GError **error);
SecretCollection *secret_collection_for_alias_sync(SecretService *service, const char *alias, int flags,
                                                   GCancellable *cancellable, GError **error);
csecret_gboolean secret_collection_get_locked(SecretCollection *self);

SecretItem *secret_item_create_sync(SecretCollection *collection, const SecretSchema *schema, GHashTable *attributes,
                                    const char *label, SecretValue *value, int flags,
                                    GCancellable *cancellable, GError **error);
csecret_gboolean secret_item_delete_sync(SecretItem *self, GCancellable *cancellable, GError **error);
SecretValue *secret_item_get_secret(SecretItem *self);
csecret_gboolean secret_item_load_secret_sync(SecretItem *self, GCancellable *cancellable, GError **error);
csecret_gboolean secret_item_set_secret_sync(SecretItem *self, SecretValue *value,
                                             GCancellable *cancellable, GError **error);
GHashTable *secret_item_get_attributes(SecretItem *self);
csecret_gboolean secret_item_set_attributes_sync(SecretItem *self, const SecretSchema *schema, GHashTable *attributes,
                                                 GCancellable *cancellable, GError **error);
char *secret_item_get_label(SecretItem *self);
csecret_gboolean secret_item_set_label_sync(SecretItem *self, const char *label,
                                            GCancellable *cancellable, GError **error);
csecret_gboolean secret_item_get_locked(SecretItem *self);
uint64_t secret_item_get_created(SecretItem *self);
uint64_t secret_item_get_modified(SecretItem *self);

// Helpers Swift cannot write itself (GLib's macros and function-pointer arguments).

/// A string-to-string table that owns copies of its keys and values.
static inline GHashTable *csecret_string_table_new(void) {
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}
static inline void csecret_string_table_insert(GHashTable *table, const char *key, const char *value) {
    g_hash_table_insert(table, g_strdup(key), g_strdup(value));
}
/// A name-to-type table for secret_schema_newv (values are GINT_TO_POINTER(type)).
static inline GHashTable *csecret_schema_table_new(void) {
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}
static inline void csecret_schema_table_insert(GHashTable *table, const char *name, int type) {
    g_hash_table_insert(table, g_strdup(name), (void *)(intptr_t)type);
}
static inline void csecret_list_free_objects(GList *list) {
    g_list_free_full(list, g_object_unref);
}
#endif
