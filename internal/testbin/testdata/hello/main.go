// Command hello prints "hello"; testbin's tests build it.
package main

import "fmt"

func main() { fmt.Println("hello") }
