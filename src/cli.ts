console.log("hi from cli", process.argv.slice(2))
