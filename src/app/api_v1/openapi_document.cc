#include "app/api_v1/openapi_document.h"

namespace basalt::app::api_v1 {

// Kept in step with docs/api-v1.md by hand; openapi_test.cc checks it against the routes.
// clang-format off
std::string_view OpenApiDocument() {
  static constexpr std::string_view kDocument = R"openapi({
 "openapi": "3.0.3",
 "info": {
  "title": "basalt recipes API",
  "version": "1",
  "description": "The recipes' JSON API of basalt serve; docs/api-v1.md is the contract."
 },
 "paths": {
  "/api/v1/signup": {
   "post": {
    "summary": "Create an account and log in",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/Credentials"
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "created and logged in",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Session"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "409": {
      "$ref": "#/components/responses/E409"
     }
    }
   }
  },
  "/api/v1/login": {
   "post": {
    "summary": "Log in: sets the basalt_session cookie",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/Credentials"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "logged in",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Session"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "401": {
      "$ref": "#/components/responses/E401"
     },
     "429": {
      "$ref": "#/components/responses/E429"
     }
    }
   }
  },
  "/api/v1/logout": {
   "post": {
    "summary": "Revoke the session and clear the cookie",
    "security": [
     {
      "sessionCookie": []
     },
     {
      "bearer": []
     }
    ],
    "responses": {
     "204": {
      "description": "done"
     },
     "403": {
      "$ref": "#/components/responses/E403"
     }
    }
   }
  },
  "/api/v1/me": {
   "get": {
    "summary": "The session's user",
    "security": [
     {
      "sessionCookie": []
     },
     {
      "bearer": []
     }
    ],
    "responses": {
     "200": {
      "description": "the user",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "user": {
           "type": "string"
          }
         }
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/E401"
     }
    }
   }
  },
  "/api/v1/users/{user}": {
   "parameters": [
    {
     "name": "user",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "user name"
    }
   ],
   "get": {
    "summary": "A profile with follow counts",
    "responses": {
     "200": {
      "description": "profile",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Profile"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "404": {
      "$ref": "#/components/responses/E404"
     }
    }
   },
   "put": {
    "summary": "Edit one's own profile",
    "security": [
     {
      "sessionCookie": []
     },
     {
      "bearer": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "display_name": {
          "type": "string"
         },
         "bio": {
          "type": "string"
         }
        }
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "profile",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Profile"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "401": {
      "$ref": "#/components/responses/E401"
     },
     "403": {
      "$ref": "#/components/responses/E403"
     },
     "404": {
      "$ref": "#/components/responses/E404"
     }
    }
   }
  },
  "/api/v1/users/{user}/follow": {
   "parameters": [
    {
     "name": "user",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "user name"
    }
   ],
   "post": {
    "summary": "The session's user follows {user}",
    "security": [
     {
      "sessionCookie": []
     },
     {
      "bearer": []
     }
    ],
    "responses": {
     "204": {
      "description": "done"
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "401": {
      "$ref": "#/components/responses/E401"
     },
     "403": {
      "$ref": "#/components/responses/E403"
     },
     "404": {
      "$ref": "#/components/responses/E404"
     }
    }
   },
   "delete": {
    "summary": "The session's user unfollows {user}",
    "security": [
     {
      "sessionCookie": []
     },
     {
      "bearer": []
     }
    ],
    "responses": {
     "204": {
      "description": "done"
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "401": {
      "$ref": "#/components/responses/E401"
     },
     "403": {
      "$ref": "#/components/responses/E403"
     },
     "404": {
      "$ref": "#/components/responses/E404"
     }
    }
   }
  },
  "/api/v1/users/{user}/following": {
   "parameters": [
    {
     "name": "user",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "user name"
    }
   ],
   "get": {
    "summary": "Users {user} follows",
    "parameters": [
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 100,
       "default": 20
      }
     },
     {
      "name": "cursor",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "next_cursor of the previous page"
     }
    ],
    "responses": {
     "200": {
      "description": "a page of names",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "items",
          "next_cursor"
         ],
         "properties": {
          "items": {
           "type": "array",
           "items": {
            "type": "string"
           }
          },
          "next_cursor": {
           "type": "string",
           "nullable": true
          }
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "404": {
      "$ref": "#/components/responses/E404"
     }
    }
   }
  },
  "/api/v1/users/{user}/followers": {
   "parameters": [
    {
     "name": "user",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "user name"
    }
   ],
   "get": {
    "summary": "Users following {user}",
    "parameters": [
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 100,
       "default": 20
      }
     },
     {
      "name": "cursor",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "next_cursor of the previous page"
     }
    ],
    "responses": {
     "200": {
      "description": "a page of names",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "items",
          "next_cursor"
         ],
         "properties": {
          "items": {
           "type": "array",
           "items": {
            "type": "string"
           }
          },
          "next_cursor": {
           "type": "string",
           "nullable": true
          }
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "404": {
      "$ref": "#/components/responses/E404"
     }
    }
   }
  },
  "/api/v1/posts": {
   "post": {
    "summary": "Post as the session's user",
    "security": [
     {
      "sessionCookie": []
     },
     {
      "bearer": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "text"
        ],
        "properties": {
         "text": {
          "type": "string",
          "minLength": 1
         }
        }
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "the post",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Post"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "401": {
      "$ref": "#/components/responses/E401"
     },
     "403": {
      "$ref": "#/components/responses/E403"
     }
    }
   }
  },
  "/api/v1/posts/{id}": {
   "parameters": [
    {
     "name": "id",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "post id (base64url)"
    }
   ],
   "get": {
    "summary": "A post",
    "responses": {
     "200": {
      "description": "the post",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Post"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "404": {
      "$ref": "#/components/responses/E404"
     }
    }
   },
   "delete": {
    "summary": "Delete one's own post",
    "security": [
     {
      "sessionCookie": []
     },
     {
      "bearer": []
     }
    ],
    "responses": {
     "204": {
      "description": "done"
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "401": {
      "$ref": "#/components/responses/E401"
     },
     "403": {
      "$ref": "#/components/responses/E403"
     },
     "404": {
      "$ref": "#/components/responses/E404"
     }
    }
   }
  },
  "/api/v1/users/{user}/posts": {
   "parameters": [
    {
     "name": "user",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "user name"
    }
   ],
   "get": {
    "summary": "{user}'s posts, newest first",
    "parameters": [
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 100,
       "default": 20
      }
     },
     {
      "name": "cursor",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "next_cursor of the previous page"
     }
    ],
    "responses": {
     "200": {
      "description": "a page of posts",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "items",
          "next_cursor"
         ],
         "properties": {
          "items": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Post"
           }
          },
          "next_cursor": {
           "type": "string",
           "nullable": true
          }
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "404": {
      "$ref": "#/components/responses/E404"
     }
    }
   }
  },
  "/api/v1/timeline": {
   "get": {
    "summary": "The session user's home timeline, newest first",
    "security": [
     {
      "sessionCookie": []
     },
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 100,
       "default": 20
      }
     },
     {
      "name": "cursor",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "next_cursor of the previous page"
     }
    ],
    "responses": {
     "200": {
      "description": "a page of posts",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "items",
          "next_cursor"
         ],
         "properties": {
          "items": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Post"
           }
          },
          "next_cursor": {
           "type": "string",
           "nullable": true
          }
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "401": {
      "$ref": "#/components/responses/E401"
     }
    }
   }
  },
  "/api/v1/activity": {
   "post": {
    "summary": "Record an event for the session's user",
    "security": [
     {
      "sessionCookie": []
     },
     {
      "bearer": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "name"
        ],
        "properties": {
         "name": {
          "type": "string"
         },
         "payload": {
          "type": "string"
         }
        }
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "the event",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Event"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "401": {
      "$ref": "#/components/responses/E401"
     },
     "403": {
      "$ref": "#/components/responses/E403"
     }
    }
   }
  },
  "/api/v1/users/{user}/activity": {
   "parameters": [
    {
     "name": "user",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "user name"
    }
   ],
   "get": {
    "summary": "One's own events, newest first",
    "security": [
     {
      "sessionCookie": []
     },
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 100,
       "default": 20
      }
     },
     {
      "name": "cursor",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "next_cursor of the previous page"
     }
    ],
    "responses": {
     "200": {
      "description": "a page of events",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "items",
          "next_cursor"
         ],
         "properties": {
          "items": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Event"
           }
          },
          "next_cursor": {
           "type": "string",
           "nullable": true
          }
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "401": {
      "$ref": "#/components/responses/E401"
     },
     "403": {
      "$ref": "#/components/responses/E403"
     }
    }
   }
  },
  "/api/v1/clicks/{item}": {
   "parameters": [
    {
     "name": "item",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "click item, 1..200 bytes of UTF-8"
    }
   ],
   "post": {
    "summary": "Count clicks of {item}",
    "security": [
     {
      "sessionCookie": []
     },
     {
      "bearer": []
     }
    ],
    "requestBody": {
     "required": false,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "n": {
          "type": "integer",
          "minimum": 1,
          "default": 1
         }
        }
       }
      }
     }
    },
    "responses": {
     "204": {
      "description": "done"
     },
     "400": {
      "$ref": "#/components/responses/E400"
     },
     "401": {
      "$ref": "#/components/responses/E401"
     },
     "403": {
      "$ref": "#/components/responses/E403"
     }
    }
   },
   "get": {
    "summary": "Counts of {item}",
    "parameters": [
     {
      "name": "from_ms",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "format": "int64"
      },
      "description": "window start (default: to_ms - 1 hour)"
     },
     {
      "name": "to_ms",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "format": "int64"
      },
      "description": "window end (default: now)"
     }
    ],
    "responses": {
     "200": {
      "description": "counts",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ClickCounts"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     }
    }
   }
  },
  "/api/v1/clicks/{item}/series": {
   "parameters": [
    {
     "name": "item",
     "in": "path",
     "required": true,
     "schema": {
      "type": "string"
     },
     "description": "click item, 1..200 bytes of UTF-8"
    }
   ],
   "get": {
    "summary": "Clicks of {item} per step (at most 1000 points)",
    "parameters": [
     {
      "name": "from_ms",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "format": "int64"
      },
      "description": "window start (default: to_ms - 1 hour)"
     },
     {
      "name": "to_ms",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "format": "int64"
      },
      "description": "window end (default: now)"
     },
     {
      "name": "step_ms",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 60000,
       "default": 60000
      }
     }
    ],
    "responses": {
     "200": {
      "description": "series",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "item": {
           "type": "string"
          },
          "points": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "t_ms": {
              "type": "integer",
              "format": "int64"
             },
             "count": {
              "type": "integer",
              "format": "int64"
             }
            }
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     }
    }
   }
  },
  "/api/v1/clicks/top": {
   "get": {
    "summary": "The most clicked items in a window",
    "parameters": [
     {
      "name": "from_ms",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "format": "int64"
      },
      "description": "window start (default: to_ms - 1 hour)"
     },
     {
      "name": "to_ms",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "format": "int64"
      },
      "description": "window end (default: now)"
     },
     {
      "name": "k",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 100,
       "default": 10
      }
     }
    ],
    "responses": {
     "200": {
      "description": "top items",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "items": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "item": {
              "type": "string"
             },
             "count": {
              "type": "integer",
              "format": "int64"
             }
            }
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/E400"
     }
    }
   }
  },
  "/api/v1/admin/stats": {
   "get": {
    "summary": "The server's figures (fan-out queue, HTTP) as JSON",
    "security": [
     {
      "adminToken": []
     },
     {
      "adminHeader": []
     }
    ],
    "responses": {
     "200": {
      "description": "figures",
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/E401"
     }
    }
   }
  },
  "/api/v1/openapi.json": {
   "get": {
    "summary": "This document",
    "responses": {
     "200": {
      "description": "OpenAPI 3.0",
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      }
     }
    }
   }
  }
 },
 "components": {
  "securitySchemes": {
   "sessionCookie": {
    "type": "apiKey",
    "in": "cookie",
    "name": "basalt_session",
    "description": "writes also need the header X-Basalt-CSRF: 1"
   },
   "bearer": {
    "type": "http",
    "scheme": "bearer"
   },
   "adminToken": {
    "type": "http",
    "scheme": "bearer",
    "description": "the server's admin token"
   },
   "adminHeader": {
    "type": "apiKey",
    "in": "header",
    "name": "X-Basalt-Admin"
   }
  },
  "responses": {
   "E400": {
    "description": "bad_request",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   },
   "E401": {
    "description": "unauthorized",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   },
   "E403": {
    "description": "forbidden (another user's resource, or a cookie write without X-Basalt-CSRF: 1)",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   },
   "E404": {
    "description": "not_found",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   },
   "E409": {
    "description": "conflict",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   },
   "E429": {
    "description": "rate_limited (see Retry-After)",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   }
  },
  "schemas": {
   "Error": {
    "type": "object",
    "required": [
     "error"
    ],
    "properties": {
     "error": {
      "type": "object",
      "required": [
       "code",
       "message"
      ],
      "properties": {
       "code": {
        "type": "string",
        "enum": [
         "bad_request",
         "unauthorized",
         "forbidden",
         "not_found",
         "method_not_allowed",
         "conflict",
         "too_large",
         "rate_limited",
         "internal"
        ]
       },
       "message": {
        "type": "string"
       }
      }
     }
    }
   },
   "Credentials": {
    "type": "object",
    "required": [
     "user",
     "password"
    ],
    "properties": {
     "user": {
      "type": "string",
      "pattern": "^[a-z][a-z0-9_]{2,31}$"
     },
     "password": {
      "type": "string",
      "minLength": 10,
      "maxLength": 128
     }
    }
   },
   "Session": {
    "type": "object",
    "properties": {
     "user": {
      "type": "string"
     },
     "token": {
      "type": "string"
     },
     "expires_at_ms": {
      "type": "integer",
      "format": "int64"
     }
    }
   },
   "Profile": {
    "type": "object",
    "properties": {
     "user": {
      "type": "string"
     },
     "display_name": {
      "type": "string"
     },
     "bio": {
      "type": "string"
     },
     "following": {
      "type": "integer"
     },
     "followers": {
      "type": "integer"
     },
     "followed_by_me": {
      "type": "boolean"
     }
    }
   },
   "Post": {
    "type": "object",
    "properties": {
     "id": {
      "type": "string"
     },
     "author": {
      "type": "string"
     },
     "timestamp_ms": {
      "type": "integer",
      "format": "int64"
     },
     "text": {
      "type": "string"
     }
    }
   },
   "Event": {
    "type": "object",
    "properties": {
     "user": {
      "type": "string"
     },
     "time_ms": {
      "type": "integer",
      "format": "int64"
     },
     "seq": {
      "type": "integer"
     },
     "name": {
      "type": "string"
     },
     "payload": {
      "type": "string"
     }
    }
   },
   "ClickCounts": {
    "type": "object",
    "properties": {
     "item": {
      "type": "string"
     },
     "total": {
      "type": "integer"
     },
     "count": {
      "type": "integer"
     },
     "from_ms": {
      "type": "integer",
      "format": "int64"
     },
     "to_ms": {
      "type": "integer",
      "format": "int64"
     },
     "week": {
      "type": "integer"
     }
    }
   }
  }
 }
})openapi";
  return kDocument;
}
// clang-format on

}  // namespace basalt::app::api_v1
